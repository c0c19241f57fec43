"""fieldI-06: zhubert/intro-to-transformers, building-a-transformer/02_attention.ipynb (English notebook, PyTorch).
Q, K, V come from torch.randn without a seed and are never printed; the notebook prints the raw scores QK^T (2
decimals), the scale sqrt(64) = 8.00, the variance of the scores before and after scaling, the scaled scores
(3 decimals), the causal mask, the masked scores (2 decimals) and the causal softmax weights (3 decimals) with their
row sums.  The printed raw scores are the givens here (the document starts from scores): every later number is
computed from them.  Because the notebook computed from the unrounded scores, a number counts as right when it lies
within what the 2-decimal raw scores allow (each moved within half a unit of its last digit, random draws with a fixed
seed), widened by half a unit of its own last digit.  The variances are torch.var's (n - 1).  No own error."""
import re

import numpy as np
from _truth import Truth, rounds_to, decimals

S = np.array([[-2.16, 6.76, 10.36, 11.73, -13.56], [-11.08, -0.29, 2.61, 8.53, 6.73], [-7.69, 3.23, -1.55, -1.21, 4.13],
              [2.53, -10.01, -4.3, 13.5, 9.4], [13.6, -5.85, 0.35, 1.66, -2.47]])
mask = np.triu(np.ones((5, 5), bool), 1)


def forward(S):
    Ss = S / 8
    Sm = np.where(mask, -np.inf, Ss)
    A = np.exp(Sm - Sm.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    return {"var": np.array([S.var(ddof=1), Ss.var(ddof=1)]), "Ss": Ss.ravel(), "kept": Ss[~mask],
            "A": np.concatenate([np.append(A[i], A[i].sum()) for i in range(5)])}


exact = forward(S)
rng = np.random.default_rng(0)
runs = [forward(S + rng.uniform(-0.005, 0.005, S.shape)) for _ in range(400)]
lo = {k: np.min([r[k] for r in runs], 0) for k in exact}
hi = {k: np.max([r[k] for r in runs], 0) for k in exact}
print({k: np.round(v, 4) for k, v in exact.items()})

T = Truth("fieldI-06-zhubert-en-nb-printed-scores")


def judged(printed, key, idx, what, at):
    x = exact[key][idx]
    half = 0.5 * 10 ** -decimals(printed)
    ok = rounds_to(printed, x) or (lo[key][idx] - half <= float(printed) <= hi[key][idx] + half)
    T.num(printed, x, what, at, correct=ok)


for i in range(5):
    T.row(S[i], f"raw scores QK^T[{i + 1}]", (7, 6 + i, True), role="input")
T.nums(["64", "8.00"], [64, 8.0], "d_k, sqrt(d_k)", (10, 1, True))
judged("58.02", "var", 0, "variance of the raw scores (n - 1)", (10, 3, True))
judged("0.91", "var", 1, "variance of the scaled scores (n - 1)", (10, 4, True))
k = 0
for i in range(5):
    for j, p in enumerate(re.findall(r"-?\d+\.\d*", T._line((10, 7 + i, True)))):
        judged(p.rstrip("."), "Ss", 5 * i + j, f"scaled scores[{i + 1},{j + 1}]", (10, 7 + i, True))
    T.row(mask[i].astype(int), f"causal mask row {i + 1}", (12, 2 + i, True))
    for j, p in enumerate(re.findall(r"-?\d+\.\d+", T._line((13, 2 + i, True)))):
        judged(p, "kept", k, f"masked scores[{i + 1},{j + 1}]", (13, 2 + i, True))
        k += 1
    for j, p in enumerate(re.findall(r"-?\d+\.\d*", T._line((15, 2 + i, True)))):
        judged(p.rstrip(".") if p.endswith(".") else p, "A", 6 * i + j, f"causal weights[{i + 1},{j + 1}]",
               (15, 2 + i, True))
for i, p in enumerate(re.findall(r"\d+\.", T._line((15, 9, True)))):
    judged(p.rstrip("."), "A", 6 * i + 5, f"row sum {i + 1}", (15, 9, True))
T.mark_own_errors()
T.slip("[-1.385 -0.037  0.326  1.066  0.841]", "[-1.385 -0.037  0.326  1.606  0.841]", "swapped digits in a scaled score")
T.slip("[ -0.96,   0.40,  -0.19,   -inf", "[ -0.96,   0.40,   0.19,   -inf", "a dropped sign in a masked score")
T.slip("[0.142 0.554 0.305 0.    0.   ]", "[0.142 0.545 0.305 0.    0.   ]", "swapped digits in a causal weight")
T.slip("After scaling - variance: 0.91", "After scaling - variance: 0.19", "swapped digits in a variance")
T.write()
