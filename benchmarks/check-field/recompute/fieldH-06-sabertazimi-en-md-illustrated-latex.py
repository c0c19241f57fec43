"""fieldH-06: sabertazimi/awesome-notes, content/ai/dl/transformer.md (English notes in Markdown with LaTeX, tips in
Chinese).  The three-token example of "Illustrated: Self-Attention": X (3x4), integer W_Q, W_K, W_V, then Q, K, V,
K^T, QK^T, softmax(QK^T) (unscaled, as the equation says), the first output as a weighted sum, all outputs, and a
PyTorch listing whose comments give the exact softmax and two output tensors.
The softmax matrix is shown rounded to one decimal as [[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]]; its first
entry is 0.0634 (0.1 at one decimal): an own error on each line that states it as the softmax (lines 127 and 183)
or uses it as alpha_11 (line 165).  The code says openly that it approximates, so the listing's approximate matrix
is taken as a given of the code.  Outputs computed from the rounded weights count as right when they follow from
them (rounded inputs carried forward); the exact outputs are in the listing's last comment."""
import numpy as np
from _truth import Truth

X = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], float)
Wq = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], float)
Wk = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], float)
Wv = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], float)
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
A = np.exp(S) / np.exp(S).sum(1, keepdims=True)
Aap = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])
Y, Yap = A @ V, Aap @ V
print(Q, K, V, S, A, Y, Yap, sep="\n")

T = Truth("fieldH-06-sabertazimi-en-md-illustrated-latex")
L = lambda n: (None, n, False)  # noqa: E731
T.row(X.ravel(), "X", L(47), role="input")
for ln, W, name in ((57, Wq, "W_Q"), (62, Wk, "W_K"), (67, Wv, "W_V")):
    T.row(W.ravel(), name, L(ln), role="input")
for ln0, W, M, name in ((74, Wq, Q, "Q = X W_Q"), (81, Wk, K, "K = X W_K"), (88, Wv, V, "V = X W_V")):
    T.row(X.ravel(), f"X in {name}", L(ln0), role="input")
    T.row(W.ravel(), f"weights in {name}", L(ln0 + 1), role="input")
    T.row(M.ravel(), name, L(ln0 + 2))
T.row(Q.ravel(), "Q in QK^T", L(97))
T.row(K.T.ravel(), "K^T", L(98))
T.row(S.ravel(), "QK^T", L(99))
T.row(S.ravel(), "QK^T inside the softmax", L(126))
T.row(A.ravel(), "softmax(QK^T) (one decimal)", L(127))
T.nums(["0.0"], [A[0, 0]], "alpha_11", L(165))
T.row(V[0], "v_1 in the sum", L(165), role="input")
T.nums(["0.5"], [A[0, 1]], "alpha_12", L(166))
T.row(V[1], "v_2 in the sum", L(166), role="input")
T.nums(["0.5"], [A[0, 2]], "alpha_13", L(167))
T.row(V[2], "v_3 in the sum", L(167), role="input")
T.row(Y[0], "y_1", L(168), carried=Yap[0])
T.row(Y[1], "y_2", L(175), carried=Yap[1])
T.row(Y[2], "y_3", L(176), carried=Yap[2])
T.row(A.ravel(), "softmax(QK^T) in the product (one decimal)", L(183))
T.row(V.ravel(), "V in the product", L(184))
T.row(Y.ravel(), "softmax(QK^T) V", L(185), carried=Yap.ravel())
for r in range(3):
    T.row(X[r], f"x[{r + 1}] (code)", L(203 + r), role="input")
for r in range(4):
    T.row(Wq[r], f"w_query[{r + 1}] (code)", L(211 + r), role="input")
    T.row(Wk[r], f"w_key[{r + 1}] (code)", L(217 + r), role="input")
    T.row(Wv[r], f"w_value[{r + 1}] (code)", L(223 + r), role="input")
for r in range(3):
    T.row(A[r], f"softmax(attn_scores)[{r + 1}] (comment)", L(242 + r))
    T.row(Aap[r], f"approximate softmax[{r + 1}] (code, said to approximate)", L(247 + r), role="input")
    T.row(Yap[r], f"outputs from the approximate weights[{r + 1}] (comment)", L(260 + r))
    T.row(Y[r], f"outputs from the exact weights[{r + 1}] (comment)", L(263 + r))
T.mark_own_errors({(None, 127): "softmax(QK^T)[1,1] is 0.0634 (0.1 at one decimal), printed 0.0 (rounded for "
                                "readability, said only in the code further down)",
                   (None, 165): "alpha_11 is 0.0634, used as 0.0",
                   (None, 183): "the same rounded softmax matrix, [1,1] printed 0.0 for 0.0634"})
T.slip("=\\begin{bmatrix}2&4&4\\\\4&16&12\\\\4&12&10\\end{bmatrix}\n$$",
       "=\\begin{bmatrix}2&4&4\\\\4&16&12\\\\4&21&10\\end{bmatrix}\n$$", "swapped digits in a score")
T.slip("y_3=\\begin{bmatrix}2.0&7.8&0.3\\end{bmatrix}", "y_3=\\begin{bmatrix}2.0&8.7&0.3\\end{bmatrix}",
       "swapped digits in an output")
T.slip("#         [2.0000, 7.9640, 0.0540],", "#         [2.0000, 7.9460, 0.0540],", "swapped digits in an exact output")
T.slip(" =\\begin{bmatrix}0&1&1\\\\4&4&0\\\\2&3&1\\end{bmatrix}", " =\\begin{bmatrix}0&1&1\\\\4&4&0\\\\2&3&2\\end{bmatrix}",
       "one digit off in a key")
T.write()
