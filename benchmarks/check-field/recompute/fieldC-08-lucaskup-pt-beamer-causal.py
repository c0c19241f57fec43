"""fieldC-08: Portuguese beamer slides on decoder-only models, same course as fieldC-06/07 (lucaskup/deep-learning-
course, slides/04-transformers/03-decoder_only.tex).  Its attention example ("Máscara Causal: Exemplo Numérico")
starts from an already scaled 3x3 score matrix S = Q K^T / sqrt(d_k), adds the causal mask M (-inf above the
diagonal, in colour), shows S + M and the row softmax, all in one line of bmatrix environments under \\underbrace,
then spells out row 2 with \\dfrac.  All numbers hold.

The rest of the deck is about decoding (softmax over vocabulary logits, temperature, top-p, beam search), SwiGLU and
RMSNorm: softmax arithmetic that is not attention.  It is not in this truth; any error finding there is counted as a
false finding, which is right only because those numbers hold (checked for the logits table: 0.60, 0.25, 0.08, 0.05,
0.02 and 20.1 / 33.2)."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-08-lucaskup-pt-beamer-causal"
S = np.array([[2.0, 1.0, 3.0], [0.0, 2.0, 1.0], [1.0, 0.0, 2.0]])
M = np.triu(np.full((3, 3), -np.inf), 1)
A = softmax(S + M)
print("A", A)
logits = np.array([3.0, 2.1, 1.0, 0.5, -0.5])
print("vocabulary softmax (not in truth)", softmax(logits).round(3), np.exp(logits)[0], np.exp(logits).sum())

T = Truth(ID)
at = T.find("\\underbrace{\\begin{bmatrix} 2 & 1 & 3")
T.row(S.ravel(), "S = Q K^T / sqrt(d_k)", at, role="input")
at = T.find("\\underbrace{\\begin{bmatrix} 0 & \\textcolor{DarkRed}{-\\infty}")
T.nums(["0", "0", "0", "0", "0", "0"], [0] * 6, "M (zeros)", at, role="input")
at = T.find("\\begin{bmatrix} 2 & \\textcolor{DarkRed}{-\\infty}")
T.nums(["2", "0", "2", "1", "0", "2"], [S[0, 0], S[1, 0], S[1, 1], *S[2]], "S + M (unmasked)", at)
at = T.find("\\begin{bmatrix} 1.00 & \\textcolor{gray}{0}")
T.nums(["1.00", "0", "0", "0.12", "0.88", "0", "0.24", "0.09", "0.67"], A.ravel(), "softmax(S + M)", at)
at = T.find("Linha 2: $\\dfrac{e^{0}}")
T.nums(["0", "0", "2", "0.12", "2", "0", "2", "0.88"], [0, 0, 2, A[1, 0], 2, 0, 2, A[1, 1]], "row 2 spelled out", at)
T.mark_own_errors()
T.slip("\\\\ 0.24 & 0.09 & 0.67 \\end{bmatrix}", "\\\\ 0.24 & 0.90 & 0.67 \\end{bmatrix}", "swapped digits in A[3,2]")
T.slip("{e^{0}+e^{2}} = 0.12$", "{e^{0}+e^{2}} = 0.21$", "swapped digits in row 2")
T.slip("\\\\ 0.12 & 0.88 & \\textcolor{gray}{0}", "\\\\ 0.12 & 0.86 & \\textcolor{gray}{0}", "one digit off in A[2,2]")
T.write()

source(ID, source={"repo": "lucaskup/deep-learning-course", "path": "slides/04-transformers/03-decoder_only.tex",
                   "commit": "94b3e16a58fb700ce2af7a8c406668aeff250296"},
       format="tex", lang="pt", starts_from="scores",
       what="Portuguese beamer slides: a scaled 3x3 score matrix plus a causal mask (coloured -inf), S + M and the "
            "row softmax in one underbraced bmatrix line, row 2 spelled out; the rest of the deck is decoding "
            "arithmetic (vocabulary softmax, temperature, top-p), SwiGLU and RMSNorm",
       config={"T": 3, "S": 3, "H": 1, "d_k": None, "scale": "already in S", "mask": "causal", "W_O": None,
               "givens": "scaled scores S"})
