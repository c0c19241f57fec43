"""fieldC-06: a Portuguese exercise list with its answer key (lucaskup/deep-learning-course, problems/04-transformers/
lista01_transformers.tex; "Gabarito" in blue after the questions).  The attention numbers:
  II  (discursive) an RNN decoder state s_1 = [2, 1] scored by plain dot product against three encoder states drawn as
      TikZ nodes (h_1 = [6, 2], h_2 = [-2, 1], h_3 = [6, -1]); the key gives only the context vector [6, 1.86] as a
      bmatrix column, far from the question (line 345);
  IX  var[S.H] = 64 for d = 64, divide by sqrt(64) = 8;
  XI  q = x W_q = [5, 3] (a projection), with the arithmetic;
  XII weights a = [0.7, 0.2, 0.1] with values V (3x2): c = [7.5, 2.5] with the partial products;
  XVII scores [1.5, 0.5, 2.0, 1.0] with a causal mask row [0, 0, -inf, -inf]: exponentials, their sum, weights
      [0.73, 0.27, 0, 0].
Multiple-choice questions print wrong alternatives on purpose (e.g. [0.55, 0.10, 0.25, 0.10], [15, 15]); they are
distractors, not claims, and are left out of the numbers: a finding on them is a false finding.  The key's remarks on
how a distractor arises ([2+0+1, 1+1+0] = [3, 2]) are correct arithmetic and are recorded.  Parameter counts (Q15,
Q19) are not attention arithmetic and are left out.  All recorded numbers hold."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-06-lucaskup-pt-tex-exam-key"
s1 = np.array([2.0, 1.0])
h = np.array([[6.0, 2.0], [-2.0, 1.0], [6.0, -1.0]])
a_ii = softmax(h @ s1)
c_ii = a_ii @ h
x = np.array([1.0, 2.0, 3.0])
Wq = np.array([[2.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
q = x @ Wq
a12 = np.array([0.7, 0.2, 0.1])
V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
c12 = a12 @ V
sc = np.array([1.5, 0.5, 2.0, 1.0])
masked = np.array([1.5, 0.5, -np.inf, -np.inf])
a17 = softmax(masked)
e = np.exp(sc[:2])
print("II scores", h @ s1, "a", a_ii, "c", c_ii, "| XI q", q, "| XII c", c12, "| XVII e", e, e.sum(), a17)

T = Truth(ID)
for name, vec, lines in (("h_1", h[0], (33, 34)), ("h_2", h[1], (37, 38)), ("h_3", h[2], (41, 42)),
                         ("s_1", s1, (46, 47))):
    for j, ln in enumerate(lines):
        T.num(f"{vec[j]:g}", vec[j], f"{name}[{j + 1}] (TikZ node)", (None, ln, False), role="input")
T.num("6", c_ii[0], "II: context c[1]", (None, 345, False))
T.num("1.86", c_ii[1], "II: context c[2]", (None, 346, False))
at = T.find("Para $d = 64$, qual o valor da")
T.num("64", 64, "d", at, role="input")
at = T.find("Para $d = 64$, $\\mathrm{var}")
T.nums(["64", "64"], [64, 64], "IX: d, var[S.H]", at)
T.num("8", 8, "IX: sqrt(64)", T.find("dividimos por $\\sqrt{64} = 8"))
T.num("8", 8, "IX: sqrt(64) (correct alternative)", T.find("dividir por $\\sqrt{64} = 8$."))
T.nums(["1", "2", "3"], x, "XI: x", T.find("Considere o token $x = [1"), role="input")
T.row(Wq.ravel(), "XI: W_q", T.find("W_q = \\begin{bmatrix} 2 & 1"), role="input")
T.row([1, 2, 2, 0, 3, 1, q[0]], "XI: q_0 = x . W_q[:,1]", T.find("q_0 = 1\\cdot 2"))
T.row([1, 1, 2, 1, 3, 0, q[1]], "XI: q_1 = x . W_q[:,2]", T.find("q_1 = 1\\cdot 1"))
T.nums(["5", "3"], q, "XI: q", T.find("Logo $q = [5"))
T.nums(["2", "0", "1", "1", "1", "0", "3", "2"], [2, 0, 1, 1, 1, 0, 3, 2], "XI: column sums (distractor a explained)",
       T.find("$[2+0+1,\\,1+1+0]"))
T.nums(["0.7", "0.2", "0.1"], a12, "XII: a", T.find("a = [\\,0.7"), role="input")
T.row(V.ravel(), "XII: V", T.find("V = \\begin{bmatrix} 10 & 0"), role="input")
T.row([0.7, 10, 0, 0.2, 0, 10, 0.1, 5, 5], "XII: a_i . V_i", T.find("c = 0.7 \\cdot [10"), role="input")
T.row([7, 0, 0, 2, 0.5, 0.5], "XII: a_i V_i", T.find("= [7,\\,0] + [0,\\,2]"))
T.nums(["7.5", "2.5"], c12, "XII: c", T.find("= [7.5,\\;2.5]."))
T.nums(["7.5", "2.5"], c12, "XII: c (correct alternative)", T.find("\\item $[\\,7.5,\\;2.5\\,]$"))
T.nums(["1.5", "0.5", "2.0", "1.0"], sc, "XVII: scores", T.find("\\mathrm{scores}_2 = [\\,1.5"), role="input")
T.nums(["1.5", "0.5"], sc[:2], "XVII: masked scores", T.find("$[\\,1.5,\\; 0.5,\\; -\\infty"))
T.nums(["1.5", "4.482"], [1.5, e[0]], "XVII: e^1.5", T.find("e^{1.5} \\approx 4.482"))
T.nums(["0.5", "1.649"], [0.5, e[1]], "XVII: e^0.5", T.find("e^{0.5} \\approx 1.649"))
T.nums(["4.482", "1.649", "6.131"], [e[0], e[1], e.sum()], "XVII: sum", T.find("A soma é $4.482"),
       carried=[4.482, 1.649, 4.482 + 1.649])
T.nums(["4.482", "6.131", "1.649", "6.131", "0"], [e[0], e.sum(), e[1], e.sum(), 0],
       "XVII: fractions", T.find("a^{(2)} = \\left[\\frac{4.482}"),
       carried=[4.482, 4.482 + 1.649, 1.649, 4.482 + 1.649, 0])
T.nums(["0.73", "0.27", "0", "0"], a17, "XVII: a^(2)", T.find("\\approx [\\,0.73,\\; 0.27"))
T.nums(["0.73", "0.27", "0", "0"], a17, "XVII: a^(2) (correct alternative)", T.find("\\item $[\\,0.73,\\; 0.27"))
T.mark_own_errors()
T.slip("1.86\n\\end{bmatrix}", "1.68\n\\end{bmatrix}", "swapped digits in the context vector of II")
T.slip("A soma é $4.482 + 1.649 = 6.131$", "A soma é $4.482 + 1.649 = 6.311$", "swapped digits in a sum")
T.slip("= [7.5,\\;2.5].", "= [7.5,\\;3.5].", "one digit off in the context of XII")
T.slip("e^{0.5} \\approx 1.649", "e^{0.5} \\approx 1.694", "swapped digits in an exponential")
T.write()

source(ID, source={"repo": "lucaskup/deep-learning-course", "path": "problems/04-transformers/lista01_transformers.tex",
                   "commit": "94b3e16a58fb700ce2af7a8c406668aeff250296"},
       format="tex", lang="pt", starts_from="one-query",
       what="Portuguese exercise list with answer key (Q&A): a decoder state against three encoder states drawn as "
            "TikZ nodes (answer given only as the context vector, 300 lines later), attention weights with values, "
            "masked scores to weights with exponentials, a projection; multiple-choice distractors print wrong "
            "numbers on purpose",
       config={"T": 1, "S": 3, "H": 1, "d_k": 2, "scale": "none (II, XVII); question IX is about 1/sqrt(64)",
               "mask": "causal row in XVII", "W_O": None,
               "givens": "s_1 and h_i as TikZ nodes; a and V; a score row and a mask row"})
