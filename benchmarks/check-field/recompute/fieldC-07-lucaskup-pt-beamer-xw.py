"""fieldC-07: Portuguese beamer slides of the same course as fieldC-06 (lucaskup/deep-learning-course,
slides/04-transformers/01-transformers.tex).  Two tokens x_1, x_2 (3-d) with W_q, W_k, W_v (3x2): each projection row
multiplied out term by term over six slides, then token 1's query against both keys (-6, -7), /sqrt(2), softmax
0.67 / 0.33 and the weighted sum of values, then the same in matrix form (Q, K, V stacked, Q K^T, scaled, softmax by
row, output).  Every matrix is a bmatrix; the scaled scores, weights and outputs are marked approx.  The output row 1
is computed from the rounded weights 0.67 / 0.33 (exactly -2.66, 2.33 either way).  All numbers hold.  The pgfplots
curve on line 981 is an illustration (not computed from these givens) and is left out."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-07-lucaskup-pt-beamer-xw"
X = np.array([[1.0, -3.0, 2.0], [2.0, -1.0, 1.0]])
Wq = np.array([[1.0, 0.0], [1.0, -1.0], [0.0, -2.0]])
Wk = np.array([[1.0, 1.0], [0.0, -1.0], [0.0, 0.0]])
Wv = np.array([[-2.0, 1.0], [0.0, 1.0], [0.0, 2.0]])
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
Z = S / np.sqrt(2)
A = softmax(Z)
O = A @ V
print("Q", Q, "K", K, "V", V, "S", S, "Z", Z, "A", A, "O", O, sep="\n")

T = Truth(ID)
T.nums(["1", "-3", "2", "2", "-1", "1"], X.ravel(), "x_1, x_2", T.find("x_1 = [1,\\ -3,\\ 2]"), role="input")
T.row(Wq.ravel(), "W_q", T.find("W_q = \\begin{bmatrix} 1 & 0"), role="input")
T.row(Wk.ravel(), "W_k", T.find("W_k = \\begin{bmatrix} 1 & 1"), role="input")
T.row(Wv.ravel(), "W_v", T.find("W_v = \\begin{bmatrix} -2 & 1"), role="input")
# the per-token projection slides: the result rows
for name, vec, needle in (("q_1", Q[0], "&= \\begin{bmatrix} -2 & -1 \\end{bmatrix}"),
                          ("q_2", Q[1], "&= \\begin{bmatrix} 1 & -1 \\end{bmatrix}"),
                          ("k_1", K[0], "&= \\begin{bmatrix} 1 & 4 \\end{bmatrix}"),
                          ("k_2", K[1], "&= \\begin{bmatrix} 2 & 3 \\end{bmatrix}"),
                          ("v_1", V[0], "&= \\begin{bmatrix} -2 & 2 \\end{bmatrix}"),
                          ("v_2", V[1], "&= \\begin{bmatrix} -4 & 3 \\end{bmatrix}")):
    T.row(vec, f"{name} = x W", T.find(needle))
T.nums(["1", "-2", "-1"], [1, *Q[0]], "q_1 (prose)", T.find("textcolor{qcolor}{q_1 = [-2, -1]}"))
T.row([-6], "q_1 k_1", T.find("= -6, \\qquad"))
T.row([-7], "q_1 k_2", (None, T.find("= -6, \\qquad")[1] + 4, False))
at = T.find("-6 / \\sqrt{2} \\approx -4.24")
T.nums(["-6", "2", "-4.24", "-7", "2", "-4.95"], [S[0, 0], 2, Z[0, 0], S[0, 1], 2, Z[0, 1]], "scores / sqrt(2)", at)
at = T.find("a_1^{(1)} \\approx 0.67")
T.nums(["0.67", "0.33"], A[0], "a^(1)", at)
at = T.find("c^{(1)} = 0.67 \\cdot [-2, 2]")
T.nums(["0.67", "-2", "2", "0.33", "-4", "3", "-2.66", "2.33"],
       [A[0, 0], *V[0], A[0, 1], *V[1], *O[0]], "c^(1) = a v", at,
       carried=[0.67, -2, 2, 0.33, -4, 3, 0.67 * -2 + 0.33 * -4, 0.67 * 2 + 0.33 * 3])
T.nums(["1", "0.67", "2", "0.33"], [1, A[0, 0], 2, A[0, 1]], "weights in prose", T.find("O token 1 atende"))
# matrix form
at = T.find("\\Qc = X W_q =")
T.row(X.ravel(), "X (Q slide)", (None, at[1] + 1, False), role="input")
T.row(Wq.ravel(), "W_q (Q slide)", (None, at[1] + 2, False), role="input")
T.row(Q.ravel(), "Q", (None, at[1] + 3, False))
at = T.find("\\Kc = X W_k =")
T.row(X.ravel(), "X (K slide)", (None, at[1] + 1, False), role="input")
T.row(Wk.ravel(), "W_k (K slide)", (None, at[1] + 2, False), role="input")
T.row(K.ravel(), "K", (None, at[1] + 3, False))
at = T.find("\\Vc = X W_v =")
T.row(X.ravel(), "X (V slide)", (None, at[1] + 1, False), role="input")
T.row(Wv.ravel(), "W_v (V slide)", (None, at[1] + 2, False), role="input")
T.row(V.ravel(), "V", (None, at[1] + 3, False))
T.row(Q.ravel(), "Q (pipeline)", T.find("\\Qc = \\begin{bmatrix} -2 & -1"))
T.row(K.ravel(), "K (pipeline)", T.find("\\Kc = \\begin{bmatrix} 1 & 4"))
T.row(V.ravel(), "V (pipeline)", T.find("\\Vc = \\begin{bmatrix} -2 & 2"))
at = T.find("\\Qc \\, \\Kc^{\\top} = \\begin{bmatrix} -6")
T.nums(["-6", "-7", "-3", "-1"], S.ravel(), "Q K^T", at)
T.nums(["-4.24", "-4.95", "-2.12", "-0.71"], Z.ravel(), "Q K^T / sqrt(2)", T.find("\\frac{\\Qc \\, \\Kc^{\\top}}{\\sqrt{2}} \\approx"))
T.nums(["0.67", "0.33", "0.20", "0.80"], A.ravel(), "softmax by row", T.find("\\mathrm{softmax} \\approx \\begin{bmatrix} 0.67"))
T.nums(["-2.66", "2.33", "-3.61", "2.80"], O.ravel(), "attention(Q, K, V)",
       T.find("\\mathrm{attention}(\\Qc, \\Kc, \\Vc) \\approx"))
T.mark_own_errors()
T.slip("\\approx \\begin{bmatrix} -2.66 & 2.33 \\\\ -3.61 & 2.80", "\\approx \\begin{bmatrix} -2.66 & 2.33 \\\\ -3.16 & 2.80",
       "swapped digits in the output")
T.slip("= \\begin{bmatrix} -6 & -7 \\\\ -3 & -1 \\end{bmatrix}", "= \\begin{bmatrix} -6 & -7 \\\\ -3 & 1 \\end{bmatrix}",
       "dropped sign in a score")
T.slip("-7 / \\sqrt{2} \\approx -4.95", "-7 / \\sqrt{2} \\approx -4.59", "swapped digits in a scaled score")
T.slip("&= \\begin{bmatrix} 2 & 3 \\end{bmatrix}", "&= \\begin{bmatrix} 2 & 4 \\end{bmatrix}", "one digit off in k_2")
T.write()

source(ID, source={"repo": "lucaskup/deep-learning-course", "path": "slides/04-transformers/01-transformers.tex",
                   "commit": "94b3e16a58fb700ce2af7a8c406668aeff250296"},
       format="tex", lang="pt", starts_from="X+weights",
       what="Portuguese beamer slides: two 3-d tokens with W_q, W_k, W_v (3x2), projections multiplied out term by "
            "term, token 1's query against both keys, /sqrt(2), softmax, weighted values, then the whole thing in "
            "matrix form (every matrix a bmatrix)",
       config={"T": 2, "S": 2, "H": 1, "d_k": 2, "scale": "1/sqrt(d_k)", "mask": None, "W_O": None})
