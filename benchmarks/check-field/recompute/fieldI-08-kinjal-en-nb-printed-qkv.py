"""fieldI-08: kinjaljoshi/attention_usage, self_attention.ipynb (English Colab notebook, PyTorch).  Three 2-d token
embeddings are given; W_q, W_k, W_v are nn.Linear(2, 2) layers drawn at random without a seed and never printed, but
Q, K and V are printed (4 decimals): these are the givens here (the document starts from Q, K, V).  Then QK^T, the
scores over sqrt(2), the softmax weights and the output weights @ V are printed.
The notebook computed from the unrounded Q, K, V, so a number counts as right when it lies within what the 4-decimal
Q, K, V allow (each moved within half a unit of its last digit, random draws with a fixed seed), widened by half a
unit of its own last digit.  Q, K and V do follow one linear map of the embeddings each (rows 1-2 determine the map,
row 3 agrees to the printed digits), so they come from the same run as the scores.
Own error: the printed final output [[0.6226, 0.1312], [0.5522, 0.2499], [0.5669, 0.2324]] is not weights @ V
([[-0.7081, -0.8269], [-0.7417, -0.9193], [-0.7190, -0.8447]]): a stale output from another run of the random layers."""
import re

import numpy as np
from _truth import Truth, rounds_to, decimals

E = np.array([[1.16, 0.23], [0.57, 1.36], [4.41, -2.16]])
Q = np.array([[0.6280, 0.3725], [0.4280, 0.0586], [2.0970, 1.7193]])
K = np.array([[0.6564, -0.3415], [0.4528, 0.0570], [2.1781, -1.8451]])
V = np.array([[-0.3970, -0.2253], [-0.2985, 0.4742], [-1.2576, -2.2797]])


def forward(Q, K, V):
    S = Q @ K.T
    Ss = S / np.sqrt(2)
    A = np.exp(Ss - Ss.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    return {"S": S, "Ss": Ss, "A": A, "O": A @ V}


exact = forward(Q, K, V)
rng = np.random.default_rng(0)
d = lambda M: M + rng.uniform(-5e-5, 5e-5, M.shape)  # noqa: E731
runs = [forward(d(Q), d(K), d(V)) for _ in range(400)]
lo = {k: np.min([r[k] for r in runs], 0) for k in exact}
hi = {k: np.max([r[k] for r in runs], 0) for k in exact}
print({k: np.round(v, 4) for k, v in exact.items()})

T = Truth("fieldI-08-kinjal-en-nb-printed-qkv")


def judged_row(key, i, at, what):
    line = T._line(at).split("grad_fn=")[0]
    for j, p in enumerate(re.findall(r"-?\d+\.\d+", line)):
        x = exact[key][i, j]
        half = 0.5 * 10 ** -decimals(p)
        ok = rounds_to(p, x) or (lo[key][i, j] - half <= float(p) <= hi[key][i, j] + half)
        T.num(p, x, f"{what}[{i + 1},{j + 1}]", at, correct=ok)


for i in range(3):
    T.row(E[i], f"token embeddings[{i + 1}]", (5, 5 + i, False), role="input", last=False)
    T.row(Q[i], f"Q[{i + 1}]", (7, 2 + i, True), role="input")
    T.row(K[i], f"K[{i + 1}]", (7, 7 + i, True), role="input")
    T.row(V[i], f"V[{i + 1}]", (7, 12 + i, True), role="input")
    judged_row("S", i, (9, 3 + i, True), "QK^T")
    judged_row("Ss", i, (11, 3 + i, True), "QK^T / sqrt(2)")
    judged_row("A", i, (13, 3 + i, True), "attention weights")
    T.row(E[i], f"token embeddings[{i + 1}] (printed again)", (15, 4 + i, True), role="input")
    judged_row("O", i, (15, 9 + i, True), "attention output = weights @ V")
T.mark_own_errors({(15, 9): "the printed output is not weights @ V (-0.7081, -0.8269): a stale output of another run",
                   (15, 10): "not weights @ V (-0.7417, -0.9193): stale output",
                   (15, 11): "not weights @ V (-0.7190, -0.8447): stale output"})
for e in T.own_errors:        # the wrong numbers are in the cell's output area
    e["output"] = True
T.slip("[[0.2850, 0.3056, 0.6805]", "[[0.2850, 0.3065, 0.6805]", "swapped digits in a score")
T.slip("[0.1845, 0.1394, 0.5828]", "[0.1845, 0.1394, 0.5882]", "swapped digits in a scaled score")
T.slip("[0.2677, 0.3213, 0.4109]", "[0.2677, 0.3213, 0.4190]", "swapped digits in a weight")
T.write()
