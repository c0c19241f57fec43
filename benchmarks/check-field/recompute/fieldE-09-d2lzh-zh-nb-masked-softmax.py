"""fieldE-09: coder-42k/TRANSFORMER-BERT, chapter_attention-mechanisms/attention-scoring-functions.ipynb (Chinese
notebook: an executed copy of the d2l-zh chapter "注意力评分函数").
Cells 6 and 8: masked_softmax of torch.rand(2, 2, 4) with valid lengths [2, 3] and [[1, 3], [2, 4]].  The scores are
drawn and never printed, so only what the lengths force is determined: the masked entries are 0 and a row with one
valid entry is 1; the other weights are kept with their printed value as "exact" and marked unreachable by
reachable.py (each row still sums to 1, as it must).
Cells 12 and 18: additive and scaled dot-product attention with keys = ones((2, 10, 2)), values =
arange(40).reshape(1, 10, 4) repeated, valid lengths [2, 6], eval mode.  All keys are equal, so every valid key gets
the same score whatever the (random, unprinted) queries and W's are: the weights are uniform over the valid keys
and the outputs are the means of the first 2 and first 6 value rows, [2, 3, 4, 5] and [10, 11, 12, 13]."""
import re
import numpy as np
from _truth import Truth

T = Truth("fieldE-09-d2lzh-zh-nb-masked-softmax")
NUM = re.compile(r"-?\d+\.\d+")


def printed(cell, lines):
    return [(m.group(), (cell, ln, True)) for ln in lines for m in NUM.finditer(T.lines[(cell, ln, True)])]


def masked_demo(cell, lens):
    got = printed(cell, (1, 2, 4, 5))
    for k, (p, at) in enumerate(got):
        b, r, j = k // 8, (k // 4) % 2, k % 4
        n = lens[b][r]
        where = f"[{b},{r},{j}]"
        if j >= n:
            T.num(p, 0.0, f"masked_softmax(rand) masked entry{where}", at)
        elif n == 1:
            T.num(p, 1.0, f"masked_softmax(rand) only valid entry{where}", at)
        else:
            T.num(p, float(p), f"masked_softmax(rand) entry{where}", at, correct=True)


masked_demo(6, [[2, 2], [3, 3]])
masked_demo(8, [[1, 3], [2, 4]])
values = np.arange(40, dtype=float).reshape(10, 4)
out = np.array([values[:2].mean(0), values[:6].mean(0)])
for cell, what in ((12, "additive attention output"), (18, "scaled dot-product attention output")):
    got = printed(cell, (1, 3))
    for k, ((p, at), x) in enumerate(zip(got, out.ravel())):
        T.num(p, x, f"{what}[{k + 1}]", at)
T.mark_own_errors()
T.slip("12.0000, 13.0000]]], grad_fn", "12.0000, 31.0000]]], grad_fn", "swapped digits in an attention output")
T.slip('13.0000]]])"', '14.0000]]])"', "one digit off in an attention output")
T.slip("[[[1.0000, 0.0000, 0.0000, 0.0000],", "[[[1.0000, 0.0100, 0.0000, 0.0000],", "a masked weight no longer 0")
T.slip("[[[0.5980, 0.4020,", "[[[0.5980, 0.4200,", "swapped digits in a weight of the random demo")
T.write()
