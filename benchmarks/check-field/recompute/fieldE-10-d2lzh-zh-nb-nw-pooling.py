"""fieldE-10: coder-42k/TRANSFORMER-BERT, chapter_attention-mechanisms/nadaraya-waston.ipynb (Chinese notebook: an
executed copy of the d2l-zh chapter "注意力汇聚：Nadaraya-Watson 核回归", with the owner's extra cells).
Weights with values: uniform weights ones((2, 10)) * 0.1 pooled over values arange(20).reshape(2, 10) by a batched
matmul gives 4.5 and 14.5; the notebook also prints the givens (the weights and values, unsqueezed several ways) and
the shapes of batched products and of the keys/values built for the kernel regression (n_train = 50, n_test = 50).
The regression itself runs on torch.rand / torch.normal data and prints only figures; the "Figure size" lines are
plot metadata, not numbers of the computation, and are not in the truth."""
import re
import numpy as np
from _truth import Truth

T = Truth("fieldE-10-d2lzh-zh-nb-nw-pooling")
NUM = re.compile(r"-?\d+(?:\.\d*)?")


def cell_numbers(cell):
    out = []
    for (c, ln, is_out), s in sorted(T.lines.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if c == cell and is_out and "Figure size" not in s and "<function" not in s:
            out += [(m.group(), (c, ln, True)) for m in NUM.finditer(s)]
    return out


def cell(c, exact, what, role="derived"):
    got = cell_numbers(c)
    if len(got) != len(exact):
        raise SystemExit(f"cell {c}: {len(got)} printed, {len(exact)} expected")
    for k, ((p, at), x) in enumerate(zip(got, exact)):
        T.num(p.rstrip("."), float(x), f"{what}[{k + 1}]", at, role=role)


w = np.ones((2, 10)) * 0.1
v = np.arange(20.0).reshape(2, 10)
cell(5, [len(np.arange(0, 5, 0.1))], "n_test")
cell(15, [2, 1, 6], "bmm((2,1,4),(2,4,6)).shape")
cell(17, [(w[b] * v[b]).sum() for b in range(2)], "bmm(weights, values)")
cell(18, [2, 1, 1], "bmm(weights, values).shape")
six = np.arange(6.0)
cell(20, list(six) * 4, "values = arange(6).reshape(2, 3), unsqueezed", role="input")
cell(21, [0.1] * 20, "weights", role="input")
cell(22, [0.1] * 60, "weights unsqueezed", role="input")
cell(23, list(np.arange(20.0)), "arange(20).reshape(2, 10, 1)", role="input")
cell(24, [0.1] * 20, "weights.unsqueeze(1)", role="input")
cell(31, [50, 49], "values.shape (leave-one-out)")
cell(34, [50, 50], "values.shape (test)")
T.mark_own_errors()
T.slip("[[14.5000]]])", "[[15.4000]]])", "swapped digits in a pooled value")
T.slip("torch.Size([2, 1, 6])", "torch.Size([2, 1, 4])", "a wrong shape")
T.slip("torch.Size([50, 49])", "torch.Size([50, 48])", "one off in a shape")
T.write()
