"""fieldJ-07: billy1125/Learning-Transformer, advanced/Attention-Mechanism-Part1.md (Chinese, traditional script;
Markdown with LaTeX matrices, one row per line).
Two tokens with Q, K, V (2 x 2) given: QK^T, the scale sqrt(2) ~ 1.414, the scaled scores, the row softmax (each row
written out and then as a matrix), the output AV, and the weights and outputs quoted again in the reading that follows.
Not in the truth: the illustrative attention rows of section 10.1.3 (stated, not computed) and the formula-only
sections 10.2 and 10.3.  The output row 2 is computed from the printed weights 0.67 and 0.33 (1.66, 2.66: exact
1.6604, 2.6604 as well).  No own errors."""
import numpy as np
from _truth import Truth

Q = np.array([[1., 0.], [0., 1.]])
K = np.array([[1., 1.], [1., 0.]])
V = np.array([[1., 2.], [3., 4.]])
S = Q @ K.T
Ss = S / np.sqrt(2)
A = np.exp(Ss) / np.exp(Ss).sum(1, keepdims=True)
O = A @ V
print(S, Ss, A, O, sep="\n")

T = Truth("fieldJ-07-billy-zh-md-qkv-two-tokens")
L = lambda n: (None, n, False)  # noqa: E731
for ln, row, nm in ((176, Q[0], "Q row 1"), (177, Q[1], "Q row 2"), (180, K[0], "K row 1"), (181, K[1], "K row 2"),
                    (184, V[0], "V row 1"), (185, V[1], "V row 2"), (198, Q[0], "Q row 1 (Step 1)"),
                    (199, Q[1], "Q row 2 (Step 1)"), (202, K[0], "K row 1 (Step 1)"), (203, K[1], "K row 2 (Step 1)"),
                    (262, V[0], "V row 1 (Step 4)"), (263, V[1], "V row 2 (Step 4)")):
    T.row(row, nm, L(ln), role="input")
T.row(S[0], "QK^T row 1", L(207))
T.row(S[1], "QK^T row 2", L(208))
T.nums(["2", "2", "1.414"], [2, 2, np.sqrt(2)], "d_k and sqrt(2)", T.find("所以 $\\sqrt{2} \\approx 1.414$"))
T.row(Ss[0], "scaled scores row 1", L(221))
T.row(Ss[1], "scaled scores row 2", L(222))
T.nums(["0.707", "0.707", "0.5", "0.5"], [*Ss[0], *A[0]], "softmax of row 1", T.find("\\text{softmax}(0.707, 0.707)"))
T.nums(["0.707", "0", "0.67", "0.33"], [*Ss[1], *A[1]], "softmax of row 2", T.find("\\text{softmax}(0.707, 0) \\approx"))
T.row(A[0], "attention weights row 1", L(246))
T.row(A[1], "attention weights row 2", L(247))
T.row(A[0], "attention weights row 1 (Step 4)", L(258), role="input")
T.row(A[1], "attention weights row 2 (Step 4)", L(259), role="input")
T.row(O[0], "output row 1", L(273))
T.row(O[1], "output row 2", L(274), carried=np.array([0.67, 0.33]) @ V)
T.nums(["0.5", "0.5"], A[0], "weights of 我, quoted", T.find("（0.5 / 0.5）"))
T.nums(["0.67", "0.33"], A[1], "weights of 吃, quoted", T.find("更偏向關注「我」（0.67）"))
T.nums(["2", "3"], O[0], "output of 我, quoted", T.find("Output = (2, 3)"))
T.nums(["1", "2", "3", "4"], [1, 2, 3, 4], "values quoted", T.find("value₁ = (1,2)"), role="input")
T.nums(["1.66", "2.66"], O[1], "output of 吃, quoted", T.find("Output ≈ (1.66, 2.66)"), carried=np.array([0.67, 0.33]) @ V)
T.num("0.67", A[1][0], "weight 0.67, quoted", T.find("（權重 0.67）"))
T.mark_own_errors()
T.slip("0.707 & 0.707 \\\\\n0.707 & 0\n\\end", "0.707 & 0.707 \\\\\n0.770 & 0\n\\end", "swapped digits in a scaled score")
T.slip("\\text{softmax}(0.707, 0) \\approx (0.67, 0.33)", "\\text{softmax}(0.707, 0) \\approx (0.67, 0.38)",
       "a wrong softmax weight")
T.slip("2 & 3 \\\\\n1.66 & 2.66", "2 & 3 \\\\\n1.66 & 2.26", "a wrong output entry")
T.write()
