"""fieldC-08: Portuguese beamer slides on decoder-only models, same course as fieldC-06/07 (lucaskup/deep-learning-
course, slides/04-transformers/03-decoder_only.tex).  Its attention example ("Máscara Causal: Exemplo Numérico")
starts from an already scaled 3x3 score matrix S = Q K^T / sqrt(d_k), adds the causal mask M (-inf above the
diagonal, in colour), shows S + M and the row softmax, all in one line of bmatrix environments under \\underbrace,
then spells out row 2 with \\dfrac.  All numbers hold.

The rest of the deck is about decoding: a softmax over five vocabulary logits [3.0, 2.1, 1.0, 0.5, -0.5] (0.60, 0.25,
0.08, 0.05, 0.02, with e^3.0 / sum = 20.1 / 33.2 ~ 0.60), greedy and beam search on those numbers, temperatures 0.5,
1 and 2 over four of the logits, top-k and top-p.  Not attention, but softmax arithmetic a checker may read, so it is
recorded too; it all holds.  Note 0.60: the exact ratio is 0.6045, while the printed rounded 20.1 / 33.2 gives 0.6054
(0.61): the author rounded the exact value, which is right.  SwiGLU and RMSNorm examples (lines 485-740) and model
sizes are not softmax arithmetic and are left out."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-08-lucaskup-pt-beamer-causal"
S = np.array([[2.0, 1.0, 3.0], [0.0, 2.0, 1.0], [1.0, 0.0, 2.0]])
M = np.triu(np.full((3, 3), -np.inf), 1)
A = softmax(S + M)
print("A", A)
logits = np.array([3.0, 2.1, 1.0, 0.5, -0.5])
print("vocabulary softmax", softmax(logits).round(3), np.exp(logits)[0], np.exp(logits).sum())

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
# decoding slides: softmax over the vocabulary logits (not attention; recorded because it is softmax arithmetic)
z = np.array([3.0, 2.1, 1.0, 0.5, -0.5])
P = softmax(z)
for k, tok in enumerate(("rolha", "roupa", "rua", "rainha", "rei")):
    at = T.find(f"\\texttt{{{tok}}}" + (" " * (7 - len(tok))) + "&", nth=0)
    T.num(["0.60", "0.25", "0.08", "0.05", "0.02"][k], P[k], f"P({tok})", at)
at = T.find("P(\\texttt{rolha}) = \\dfrac{e^{3.0}}")
T.nums(["20.1", "33.2", "0.60"], [np.exp(3.0), np.exp(z).sum(), P[0]], "P(rolha) spelled out", at)
T.nums(["0.60", "0.25"], P[:2], "P (greedy slide)", T.find("$P(\\texttt{rolha}) = 0.60$"))
T.num("0.60", P[0], "beam edge rolha", T.find("node[lbl] {$0.60$} (rolha)"))
T.num("0.25", P[1], "beam edge roupa", T.find("node[lbl] {$0.25$} (roupa)"))
T.num("0.08", P[2], "beam edge rua", T.find("node[lbl] {$0.08$} (rua)"))
T.nums(["0.60", "0.20", "0.12"], [P[0], 0.20, P[0] * 0.20], "beam score rolha toda", T.find("{$0.60 \\times 0.20 = 0.12$}"))
T.nums(["0.25", "0.80", "0.20"], [P[1], 0.80, P[1] * 0.80], "beam score roupa suja", T.find("{$0.25 \\times 0.80"))
T.num("0.02", P[4], "P(rei)", T.find("Até \\texttt{rei} ($P = 0.02$)"))
z4 = z[[0, 1, 2, 4]]
PT = {t: softmax(z4 / t) for t in (0.5, 1.0, 2.0)}
for k, tok in enumerate(("rolha", "roupa", "rua", "rei")):
    at = T.find(f"\\texttt{{{tok}}}" + " " * (6 - len(tok)) + "& ")
    T.row([PT[0.5][k], PT[1.0][k], PT[2.0][k]], f"P_T({tok}) for T = 0.5, 1, 2", at)
at = T.find("\\dfrac{0.64}{0.64+0.26} = 0.71")
T.nums(["0.64", "0.64", "0.26", "0.71"], [PT[1.0][0], PT[1.0][0], PT[1.0][1], PT[1.0][0] / PT[1.0][:2].sum()],
       "top-k renormalised", at, carried=[0.64, 0.64, 0.26, 0.64 / 0.90])
T.nums(["0.64", "0.90"], [PT[1.0][0], PT[1.0][:2].sum()], "top-p cumulative", T.find("Acumulada: $0.64 \\to 0.90$"),
       carried=[0.64, 0.64 + 0.26])
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
