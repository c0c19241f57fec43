"""fieldE-04: Open-Superintelligence-Lab site, lesson "what is attention" (English Markdown).
Two worked examples that do not start from X with weights: (1) given weights [0.1, 0.3, 0.6] mixing three 4-wide
vectors, by hand and as a printed tensor; (2) one query [1, 0, 1] against three keys (unscaled dot products
2.0, 0.0, 1.8), softmax printed to 4 places, the mix of three 2-wide values.  The prose percentages of example (2)
(53%, 9%, 38%, repeated twice as 53%) are the author's error: the printed weights are 51%, 7%, 42%.  The
"The cat sat" attention numbers near the end are illustrative (no inputs) and not in the truth."""
import numpy as np
from _truth import Truth

Xs = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2]])
a = np.array([0.1, 0.3, 0.6])
q = np.array([1.0, 0.0, 1.0])
K = np.array([[1.0, 0, 1], [0, 1, 0], [1, 0, 0.8]])
V = np.array([[10.0, 20], [30, 40], [50, 60]])
s = K @ q
w = np.exp(s) / np.exp(s).sum()
o = w @ V
w4 = np.round(w, 4)
print(s, w, o, w4 @ V)

T = Truth("fieldE-04-osl-en-weights-values-one-query")
for k, (p, line) in enumerate((("10", "10% important"), ("30", "30% important"), ("60", "60% important"))):
    T.num(p, 100 * a[k], f"a[{k + 1}] in percent", T.find(line))
T.num("1.0", a.sum(), "sum of a", T.find("Notice they sum to 1.0"))
T.row(a @ Xs, "a X", T.find("# tensor([0.7000, 0.8000"))
for k, lead in enumerate(("= [0.01, 0.02", "+ [0.15, 0.18", "+ [0.54, 0.60")):
    T.row(a[k] * Xs[k], f"a[{k + 1}] x_{k + 1}", T.find(lead))
T.row(a @ Xs, "a X (by hand)", T.find("= [0.70, 0.80, 0.90, 1.00]"))
T.num("0.6", a[2], "a[3] (prose)", T.find("highest weight (0.6)"))
T.row(s, "K q", T.find("# tensor([2.0000, 0.0000, 1.8000])"))
for k, lead in enumerate(("= 2.0 (high", "= 0.0 (no", "= 1.8 (medium")):
    at = T.find(lead)
    T.num(lead.split()[1], s[k], f"k_{k + 1} . q", at)
T.row(w, "softmax(K q)", T.find("# tensor([0.5118, 0.0693, 0.4190])"))
for k, (p, line) in enumerate((("53", "Position 0: 53% attention"), ("9", "Position 1: 9% attention"),
                               ("38", "Position 2: 38% attention"))):
    T.num(p, 100 * w[k], f"softmax(K q)[{k + 1}] in percent", T.find(line))
T.row(o, "w V", T.find("# tensor([28.1447, 38.1447])"))
at = T.find("output = 0.5118×[10, 20]")
T.nums(["0.5118", "0.0693", "0.4190"], w, "softmax(K q) (by hand)", at)
T.nums(["5.118", "10.236", "2.079", "2.772", "20.950", "25.140"], (w[:, None] * V).ravel(), "w_j v_j", 
       T.find("= [5.118, 10.236]"), carried=(w4[:, None] * V).ravel())
T.nums(["28.147", "38.148"], o, "w V (by hand)", T.find("= [28.147, 38.148]"), carried=w4 @ V)
T.num("53", 100 * w[0], "softmax(K q)[1] in percent (prose)", T.find("(weight 53%)"))
T.num("53", 100 * w[0], "softmax(K q)[1] in percent (summary)", T.find("Position 0 is 53% relevant"))
T.mark_own_errors({ln: "the prose percentage does not match the printed weight 0.5118 / 0.0693 / 0.4190 "
                       "(51%, 7%, 42%)" for ln in (246, 247, 248, 269, 276)})
T.slip("+ [0.15, 0.18, 0.21, 0.24]", "+ [0.15, 0.18, 0.12, 0.24]", "swapped digits in a weighted row")
T.slip("# tensor([0.5118, 0.0693, 0.4190])", "# tensor([0.5118, 0.0963, 0.4190])", "swapped digits in a weight")
T.slip("= [28.147, 38.148]", "= [28.147, 83.148]", "swapped digits in the output")
T.write()
