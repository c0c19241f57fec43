"""fieldI-01: AayushRaut/knowledge-base, 06-transformers/lessons/attention-fundamentals.md (English lesson in Markdown
with LaTeX).  Q (3x4), K (3x4) and V (3x2) are given in a NumPy listing; its printed output is the weight matrix
softmax(QK^T / sqrt(4)) and the output A V, rounded to 4 decimals.  A worked example then takes q_1 against the three
keys: scores, scaled scores, the exponentials and their sum, the weights and the weighted sum of the values.
No own error: every printed number is the exact value rounded at its own precision."""
import numpy as np
from _truth import Truth

Q = np.array([[1., 0., 1., 0.], [0., 1., 0., 1.], [1., 1., 0., 0.]])
K = np.array([[1., 0., 1., 0.], [0., 1., 0., 1.], [1., 0., 0., 1.]])
V = np.array([[1., 0.], [0., 1.], [1., 1.]])
S = Q @ K.T
Sh = S / np.sqrt(4)
A = np.exp(Sh) / np.exp(Sh).sum(1, keepdims=True)
O = A @ V
print(S, Sh, A, O, sep="\n")

T = Truth("fieldI-01-aayush-en-md-qkv-one-query")
L = lambda n: (None, n, False)  # noqa: E731
for r in range(3):
    T.row(Q[r], f"Q[{r + 1}] (code)", L(106 + r), role="input")
    T.row(K[r], f"K[{r + 1}] (code)", L(109 + r), role="input")
    T.row(V[r], f"V[{r + 1}] (code)", L(112 + r), role="input")
for r in range(3):
    T.row(A[r], f"A[{r + 1}] = softmax(QK^T/2) row (printed output)", L(124 + r))
    T.row(O[r], f"O[{r + 1}] = A V row (printed output)", L(127 + r))
T.nums(["0.5065"], [A[0, 0]], "A[1,1] in the prose", L(132))
T.nums(["1", "0", "1", "0"], Q[0], "q_1", L(153), role="input")
T.nums(["4", "2"], [4, 2], "d_k and sqrt(d_k)", L(153), role="input")
T.nums(["2", "0", "1"], S[0], "q_1 . k_j", L(155))
T.nums(["1", "0", "0.5"], Sh[0], "scaled scores of q_1", L(156))
T.nums(["2.7183", "1", "1.6487", "5.3670"], [np.exp(1), 1.0, np.exp(0.5), np.exp(Sh[0]).sum()],
       "e^1, e^0, e^0.5 and their sum", L(157))
T.nums(["0.5065", "0.1863", "0.3072"], A[0], "weights of q_1", L(157))
T.nums(["0.5065", "0.1863", "0.3072", "0.8137", "0.4935"], [*A[0], *O[0]], "weights and o_1", L(160))
T.mark_own_errors()
T.slip("[[0.5065 0.1863 0.3072]", "[[0.5065 0.1836 0.3072]", "swapped digits in a printed weight")
T.slip(" [0.4935 0.8137]", " [0.4935 0.8173]", "swapped digits in a printed output")
T.slip("sum $= 5.3670$", "sum $= 5.6370$", "swapped digits in the sum of exponentials")
T.slip("\\begin{bmatrix}0.8137\\\\0.4935\\end{bmatrix}", "\\begin{bmatrix}0.8137\\\\0.4953\\end{bmatrix}",
       "swapped digits in the worked output")
T.write()
