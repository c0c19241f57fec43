"""fieldG-07: lucaskup/deep-learning-course, exams/2026_1_unidade4_gabarito.tex (Portuguese LaTeX answer key of an
exam).  Only question 7 holds numbers of an attention computation: Q = K = [1, 1, 1]^T and V = [2, 4, 6]^T as
per-token scalars (d_k = 1, no scaling), the 3x3 score matrix, the causal mask, the row softmaxes (1, 0, 0),
(1/2, 1/2, 0), (1/3, 1/3, 1/3) and the outputs O = (2, 3, 4), each written out term by term.  All right.
Fractions such as \\tfrac{1}{2} are recorded with their LaTeX text as "printed"; the questions' other numbers
(MQA heads, dates) are not attention arithmetic."""
import numpy as np
from _truth import Truth

Q = K = np.ones((3, 1))
V = np.array([2.0, 4.0, 6.0])
S = Q @ K.T
S[np.triu_indices(3, 1)] = -np.inf
A = np.exp(S - S.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
O = A @ V
print(A, O)

T = Truth("fieldG-07-lucaskup-pt-tex-causal-scalars")
L = lambda n: (None, n, False)


def frac(tex: str, x: float, what: str, ln: int) -> None:
    """A number printed as a LaTeX fraction: kept with its text (the arithmetic helpers read decimals only)."""
    assert tex in T.lines[(None, ln)], (tex, ln)
    T.numbers.append({"cell": None, "line": ln, "printed": tex, "exact": float(x), "correct": True,
                      "role": "derived", "what": what})


T.nums(["1", "1", "1", "2", "4", "6", "1"], [1, 1, 1, 2, 4, 6, 1], "Q = K, V, d_k", L(136), role="input")
T.nums(["1", "1", "1"], [1, 1, 1], "S_ij = Q_i K_j = 1 * 1 = 1", L(138))
for r in range(3):
    T.row([1, 1, 1], f"S = QK^T[{r + 1},:]", L(141 + r))
T.row([1], "S_mask[1,1]", L(150))
T.row([1, 1], "S_mask[2,1:2]", L(151))
T.row([1, 1, 1], "S_mask[3,:]", L(152))
T.num("1", 1, "d_k (no scaling)", L(156), role="input")
T.num("0", 0, "e^-inf", L(156))
T.nums(["1", "1", "1", "1", "1", "0", "0", "1", "0", "0"], [1, 1, 1, 1, 1, 0, 0, 1, 0, 0],
       "row 1: softmax(1, -inf, -inf) = (e^1/e^1, 0, 0) = (1, 0, 0)", L(158))
T.nums(["1", "1", "0"], [1, 1, 0], "row 2 scores and the masked weight", L(159))
frac("\\tfrac{1}{2}", 0.5, "row 2 weights", 159)
T.nums(["1", "1", "1"], [1, 1, 1], "row 3 scores", L(160))
frac("\\tfrac{1}{3}", 1 / 3, "row 3 weights", 160)
T.nums(["1", "0", "0"], A[0], "A[1,:]", L(164))
frac("\\tfrac{1}{2}", A[1, 0], "A[2,1:2]", 165)
T.num("0", A[1, 2], "A[2,3]", L(165))
frac("\\tfrac{1}{3}", A[2, 0], "A[3,:]", 166)
for ln in (172, 173, 174):
    T.nums(["2", "4", "6"], V, "V in the sum", L(ln), role="input")
T.nums(["1", "0", "0", "2"], [A[0, 0], A[0, 1], A[0, 2], O[0]], "O_1 = 1*2 + 0*4 + 0*6 = 2", L(172))
frac("\\tfrac{1}{2}", A[1, 0], "A[2,1:2] in O_2", 173)
T.nums(["0", "1", "2", "3"], [A[1, 2], A[1, 0] * V[0], A[1, 1] * V[1], O[1]], "O_2 = ... = 1 + 2 = 3", L(173))
frac("\\tfrac{1}{3}", A[2, 0], "A[3,:] in O_3", 174)
frac("\\tfrac{12}{3}", A[2] @ V, "O_3 as a fraction", 174)
T.num("4", O[2], "O_3", L(174))
T.row(O, "O", L(177))
T.mark_own_errors()
T.slip("= 1 + 2 = 3 \\\\", "= 1 + 2 = 4 \\\\", "a neighbour's value for O_2")
T.slip("= \\tfrac{12}{3} = 4", "= \\tfrac{12}{3} = 3", "a neighbour's value for O_3")
T.slip("O = \\begin{bmatrix} 2 \\\\ 3 \\\\ 4 \\end{bmatrix}", "O = \\begin{bmatrix} 2 \\\\ 3 \\\\ 6 \\end{bmatrix}",
       "a value (V_3) in place of the output O_3")
T.write()
