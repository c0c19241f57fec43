"""fieldE-02: raiyanyahya/how-to-train-your-gpt, "explanations and examples WIP/causal_masking.md" (English Markdown).
Starts from raw scores: a 3x3 table for "I love dogs", the same with -inf above the diagonal, then the causal weights
(softmax of each row's visible scores, no further scale).  The "dogs" row (0.27 0.30 0.43) is the author's error:
softmax(0.19, 0.28, 0.44) = 0.296, 0.324, 0.380."""
import numpy as np
from _truth import Truth

S = np.array([[0.42, 0.15, 0.08], [0.33, 0.51, 0.22], [0.19, 0.28, 0.44]])
M = np.where(np.tril(np.ones((3, 3))) > 0, S, -np.inf)
A = np.exp(M - M.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
print(A.round(4))

T = Truth("fieldE-02-raiyan-en-causal-scores")
for r, name in enumerate(("I         0.42    0.15", "love      0.33    0.51    0.22", "dogs      0.19    0.28    0.44     ←")):
    T.row(S[r], f"S[{r + 1},:]", T.find(name), role="input")
for r, name in enumerate(("I         0.42    -inf", "love      0.33    0.51    -inf", "dogs      0.19    0.28    0.44      ←")):
    T.row(S[r, :r + 1], f"masked S[{r + 1},:]", T.find(name), last=False, role="input")
for r, name in enumerate(("I         1.00", "love      0.46", "dogs      0.27")):
    at = T.find(name)
    T.nums([f"{p}" for p in T._line(at).split()[1:4]], A[r], f"A[{r + 1},:]", at)
T.num("100", 100 * A[0, 0], "A[1,1] in percent", T.find("100% on itself"))
T.mark_own_errors({107: "the dogs row: softmax(0.19, 0.28, 0.44) is 0.296, 0.324, 0.380, not 0.27, 0.30, 0.43"})
T.slip("love      0.46    0.54", "love      0.46    0.45", "swapped digits in a weight")
T.slip("I         1.00    0.00    0.00", "I         0.10    0.00    0.00", "a weight shifted one place")
T.write()
