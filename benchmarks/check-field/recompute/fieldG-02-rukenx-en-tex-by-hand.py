"""fieldG-02: rukenx/attention-by-hand, 01_scaled_dot_product_self_attention/solution_by_hand.tex (English LaTeX
solution to an exercise, by hand).  Starts from X with weights: "I like cats" as a 3x2 X, 2x2 W_Q (identity), W_K,
W_V; then Q, K, V, K^T, S = QK^T, S/sqrt(2), the softmax rows (4 decimals), the output O = AV, the last row worked
term by term, percentages in words and the boxed answer.  All printed numbers agree with a float64 recomputation
(percentages and the row-sum statement included)."""
import numpy as np
from _truth import Truth

X = np.array([[1, 0], [0, 1], [1, 1]], float)
Wq, Wk, Wv = np.eye(2), np.array([[1, 1], [0, 1]], float), np.array([[1, 0], [1, 1]], float)
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
Ssc = S / np.sqrt(2)
A = np.exp(Ssc) / np.exp(Ssc).sum(1, keepdims=True)
O = A @ V
print(Q, K, V, S, Ssc, A, O, sep="\n")

T = Truth("fieldG-02-rukenx-en-tex-by-hand")
L = lambda n: (None, n, False)
for r in range(3):
    T.row(X[r], f"X[{r + 1},:]", L(28 + r), role="input")
for ln, W, name in ((34, Wq, "W_Q"), (38, Wk, "W_K"), (41, Wv, "W_V")):
    T.row(W.ravel(), name, L(ln), role="input")
T.num("2", 2, "d_k", L(42), role="input")
for base, M, what in ((57, Q, "Q = X W_Q"), (67, K, "K = X W_K"), (77, V, "V = X W_V"), (109, Ssc, "S / sqrt(2)"),
                      (126, A, "A = softmax"), (145, O, "O = A V")):
    for r in range(M.shape[0]):
        T.row(M[r], f"{what}[{r + 1},:]", L(base + r))
for r in range(2):
    T.row(K.T[r], f"K^T[{r + 1},:]", L(89 + r))
for r in range(3):
    T.row(S[r], f"S = QK^T[{r + 1},:]", L(97 + r))
T.num("2", 2, "d_k under the root", L(103), role="input")
T.num("1", A.sum(1)[0], "row sums of A (stated)", L(131))
T.row(A[2], "cats row of A", L(135))
for p, x, w in (("28.4", A[2, 0], "I"), ("14.0", A[2, 1], "like"), ("57.6", A[2, 2], "cats")):
    T.num(p, 100 * x, f"percent of cats' attention on {w}", L(137))
for k, ln in enumerate((156, 157, 158)):
    T.num(("0.2840", "0.1400", "0.5760")[k], A[2, k], f"A[3,{k + 1}] in the sum", L(ln))
    T.row(V[k], f"v_{k + 1} in the sum", L(ln), role="input")
T.row(O[2], "o_cats", L(159))
T.num("0.5760", A[2, 2], "largest weight of cats (boxed)", L(167))
T.mark_own_errors()
T.slip("0.2483&0.2483&0.5035\\\\", "0.2483&0.2483&0.5053\\\\", "swapped digits in a weight")
T.slip("1.4142&0.7071&2.1213", "1.4142&0.7071&2.1312", "swapped digits in a scaled score")
T.slip("1.5035&0.7517\\\\", "1.5035&0.7571\\\\", "swapped digits in an output")
T.write()
