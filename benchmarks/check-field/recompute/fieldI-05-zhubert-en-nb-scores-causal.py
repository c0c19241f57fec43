"""fieldI-05: zhubert/intro-to-transformers, understanding-gradients/03_attention.ipynb (English notebook, plain
Python).  Token and position embeddings and W_Q/W_K/W_V (2 heads, d_model 16, d_k 8) are drawn by random.gauss(0, 0.1)
after random.seed(42) and never printed; the notebook prints head 0's raw scores QK^T (4 decimals), Q[1] and K[0] with
their dot product, the scores over sqrt(8), the causal mask, a softmax of row 2 worked step by step (from the unrounded
scores, printed in full), the 5x5 causal weights with row sums, the outputs, output[1] worked from V[0] and V[1]
(printed), and the weights of both heads.
Exact values: the draws are redone here with Python's random (same seed, same order) and the arithmetic in NumPy.
Reachable from the page: scores[1][0] (Q[1] and K[0] are printed), everything downstream of the printed raw scores of
head 0 (scaled scores, mask, weights), output[0] = V[0] and output[1]; not reachable (marked "(random)"): the other
raw scores, outputs 2 to 4 (V[2..4] never printed), head 1's weights (its scores never printed), and the unrounded
scores printed in full in the worked softmax (only 4 decimals of them follow from the page).  No own error."""
import random

import numpy as np
from _truth import Truth

random.seed(42)
g = lambda n: [random.gauss(0, 0.1) for _ in range(n)]  # noqa: E731
E_tok = [g(16) for _ in range(6)]
E_pos = [g(16) for _ in range(5)]
tokens = [1, 3, 4, 5, 2]
X = np.array([np.add(E_tok[t], E_pos[i]) for i, t in enumerate(tokens)])
WQ = [np.array([g(8) for _ in range(16)]) for _ in range(2)]
WK = [np.array([g(8) for _ in range(16)]) for _ in range(2)]
WV = [np.array([g(8) for _ in range(16)]) for _ in range(2)]
Q, K, V = ([X @ W[h] for h in range(2)] for W in (WQ, WK, WV))
mask = np.triu(np.ones((5, 5), bool), 1)


def attend(h):
    S = Q[h] @ K[h].T
    Ss = S / np.sqrt(8)
    Sm = np.where(mask, -np.inf, Ss)
    A = np.exp(Sm - Sm.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    return S, Ss, A, A @ V[h]


S, Ss, A, O = attend(0)
A1 = attend(1)[2]
print(np.round(S, 4), np.round(Ss, 4), np.round(A, 4), np.round(O, 4), np.round(A1, 4), sep="\n")

T = Truth("fieldI-05-zhubert-en-nb-scores-causal")
R = "(random) "
for i in range(5):
    T.row(S[i], f"{R}scores[{i}] (head 0)", (8, 8 + i, True))
    if i == 1:   # scores[1][0] is reachable (Q[1], K[0] printed); the rest of the row is not
        T.numbers[-5]["what"] = "scores[1][0] (head 0)"
T.row(Q[0][1], "Q[1] (head 0)", (10, 5, True), role="input")
T.row(K[0][0], "K[0] (head 0)", (10, 8, True), role="input")
T.nums(["-0.0997", "-0.0090", "-0.0394", "-0.0398", "0.0301", "0.0085"],
       [Q[0][1][0], K[0][0][0], Q[0][1][1], K[0][0][1], Q[0][1][2], K[0][0][2]], "terms of Q[1].K[0]", (10, 11, True),
       role="input")
T.nums(["0.0021"], [S[1, 0]], "scores[1][0] = Q[1].K[0]", (10, 12, True))
T.nums(["8", "2.8284"], [8, np.sqrt(8)], "d_k, sqrt(d_k)", (12, 1, True))
T.nums(["2.8284"], [np.sqrt(8)], "sqrt(d_k)", (12, 3, True))
for i in range(5):
    T.row(Ss[i], f"scaled scores[{i}]", (12, 6 + i, True))
    T.row(Ss[i][:i + 1], f"masked scores[{i}], kept entries", (14, 4 + i, True), last=False)
T.nums(["0.0007376003232866764", "-0.004733186959169455"], Ss[1][:2], f"{R}masked scores[1] unrounded",
       (17, 4, True), role="input")
d = Ss[1] - Ss[1][:2].max()
T.nums(["0.0007"], [Ss[1][:2].max()], "max of masked scores[1]", (17, 6, True))
T.nums(["0.0007", "0.0007", "0.0000", "1.0000"], [Ss[1, 0], Ss[1, 0], d[0], np.exp(d[0])],
       "exp(s_0 - max)", (17, 7, True))
T.nums(["-0.0047", "0.0007", "-0.0055", "0.9945"], [Ss[1, 1], Ss[1, 0], d[1], np.exp(d[1])],
       "exp(s_1 - max)", (17, 8, True))
tot = np.exp(d[:2]).sum()
T.nums(["1.0000", "0.9945", "1.9945"], [1.0, np.exp(d[1]), tot], "sum of exponentials", (17, 10, True))
T.nums(["1.0000", "1.9945", "0.5014"], [1.0, tot, A[1, 0]], "weight[0] of row 1", (17, 13, True))
T.nums(["0.9945", "1.9945", "0.4986"], [np.exp(d[1]), tot, A[1, 1]], "weight[1] of row 1", (17, 14, True))
T.nums(["1.0000"], [1.0], "sum of weights", (17, 16, True))
for i in range(5):
    T.row([*A[i], A[i].sum()], f"attention weights[{i}] and row sum", (18, 6 + i, True))
    reach = i <= 1
    T.row(O[i], f"{'' if reach else R}output[{i}] (head 0)", (21, 4 + i, True))
T.nums(["0.5014", "0.4986"], A[1, :2], "weights of row 1", (22, 6, True))
T.row(V[0][0], "V[0] (head 0)", (22, 8, True), role="input")
T.row(V[0][1], "V[1] (head 0)", (22, 9, True), role="input")
T.nums(["0.5014", "0.4986"], A[1, :2], "weights in output[1]", (22, 11, True))
T.row(O[1], "output[1] by hand", (22, 13, True))
for i in range(5):
    T.row(A[i], f"attention weights[{i}] (head 0, function)", (25, 2 + i, True), last=False)
    T.row(A1[i], f"{R}attention weights[{i}] (head 1)", (25, 9 + i, True), last=False)
T.mark_own_errors()
T.slip("0.0119       -0.0027", "0.0119       -0.0072", "swapped digits in a raw score")
T.slip("     0.0034,      -0.0014,         -inf", "     0.0034,      -0.0041,         -inf",
       "swapped digits in a masked score")
T.slip("= exp(-0.0055) = 0.9945", "= exp(-0.0055) = 0.9954", "swapped digits in an exponential")
T.slip("[      0.3320        0.3348        0.3332", "[      0.3320        0.3384        0.3332",
       "swapped digits in a causal weight")
T.write()
