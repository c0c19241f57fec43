"""fieldJ-08: billy1125/Learning-Transformer, advanced/Attention-NW-Kernel-Regression.md (Chinese, traditional
script; Markdown with LaTeX).
Three worked examples.  (1) Nadaraya-Watson regression: heights 1.60, 1.75, 1.90 with weights 55, 70, 85, a query
1.75 and a Gaussian kernel with sigma = 0.10: squared distances, kernel values, their sum, the normalised weights and
the prediction.  (2) One query against three keys with given scores -2.0, 3.0, -1.0 and scalar values 1.0, 5.0, 2.0:
exponentials, their sum, the softmax weights, the weighted values and the output, and the top weight in percent.
(3) X (3 x 2), W_Q, W_K, W_V given: Q, K, V, QK^T, the scale sqrt(2) ~ 1.414, the scaled scores, each row's
exponentials, sums and softmax weights, the attention matrix (printed twice), the outputs row by row and O.
Numbers later in a chain are judged against the rounded numbers printed before them where that is what the text
divides or multiplies (carried), and against the exact value otherwise.  Not in the truth: the term-by-term
expansion of QK^T (products of 0 and 1) and the shapes in the closing table.
Own errors: e^{2.121} is 8.339 (e^{3/sqrt 2} = 8.342), printed 8.337; row 2's last weight is 4.113 / 8.169 = 0.503
(exact 0.5035 -> 0.503), printed 0.504, and the wrong 0.504 is printed again in the attention matrix (twice) and in
the second output's weights; row 3's sum, 14.478, adds the wrong 8.337 (exact 14.484), an own error carried."""
import numpy as np
from _truth import Truth

# (1) kernel regression
x, xs, ys, sig = 1.75, np.array([1.60, 1.75, 1.90]), np.array([55., 70., 85.]), 0.10
d2 = (x - xs) ** 2
Kv = np.exp(-d2 / (2 * sig ** 2))
al = Kv / Kv.sum()
f = al @ ys
# (2) one query, given scores
sc, vv = np.array([-2.0, 3.0, -1.0]), np.array([1.0, 5.0, 2.0])
ex = np.exp(sc)
a = ex / ex.sum()
o = a @ vv
# (3) X with weights
X = np.array([[1., 0.], [0., 1.], [1., 1.]])
WQ, WK, WV = np.array([[1., 0.], [0., 1.]]), np.array([[1., 1.], [0., 1.]]), np.array([[0., 1.], [1., 0.]])
Q, K, V = X @ WQ, X @ WK, X @ WV
S = Q @ K.T
Ss = S / np.sqrt(2)
E = np.exp(Ss)
A = E / E.sum(1, keepdims=True)
O = A @ V
print(d2, Kv, Kv.sum(), al, f, ex, ex.sum(), a, o, S, Ss, E, E.sum(1), A, O, sep="\n")

T = Truth("fieldJ-08-billy-zh-md-kernel-scores")
at, L = T.find, (lambda n: (None, n, False))  # noqa: E731
for ln, k in ((498, 0), (499, 1), (500, 2)):
    T.nums([f"{xs[k]:.2f}", f"{ys[k]:.0f}"], [xs[k], ys[k]], f"data point {k + 1}", L(ln), role="input")
T.nums(["1.75", "1.60", "0.0225"], [x, xs[0], d2[0]], "squared distance 1", L(517))
T.nums(["1.75", "1.75", "0.0000"], [x, xs[1], d2[1]], "squared distance 2", L(518))
T.nums(["1.75", "1.90", "0.0225"], [x, xs[2], d2[2]], "squared distance 3", L(519))
T.num("0.02", 2 * sig ** 2, "2 sigma^2", at("（$2\\sigma^2 = 0.02$）"))
T.nums(["0.0225", "0.02", "1.125", "0.3247"], [d2[0], 2 * sig ** 2, d2[0] / (2 * sig ** 2), Kv[0]], "K_1", L(525))
T.num("1.0000", Kv[1], "K_2", L(529))
T.nums(["1.125", "0.3247"], [d2[2] / (2 * sig ** 2), Kv[2]], "K_3", L(533))
T.nums(["0.3247", "1.0000", "0.3247", "1.6494"], [Kv[0], Kv[1], Kv[2], Kv.sum()], "sum of the kernel values", L(541),
       carried=[0.3247, 1.0, 0.3247, 1.6494])
T.nums(["0.3247", "1.6494", "0.197"], [Kv[0], Kv.sum(), al[0]], "alpha_1", L(545), carried=[0.3247, 1.6494, 0.3247 / 1.6494])
T.nums(["1.0000", "1.6494", "0.606"], [Kv[1], Kv.sum(), al[1]], "alpha_2", L(546), carried=[1.0, 1.6494, 1 / 1.6494])
T.nums(["0.3247", "1.6494", "0.197"], [Kv[2], Kv.sum(), al[2]], "alpha_3", L(547), carried=[0.3247, 1.6494, 0.3247 / 1.6494])
T.nums(["0.197", "55", "0.606", "70", "0.197", "85"], [al[0], 55, al[1], 70, al[2], 85], "weights and values", L(562),
       carried=[0.197, 55, 0.606, 70, 0.197, 85])
T.nums(["10.84", "42.42", "16.74", "70.0"], [al[0] * 55, al[1] * 70, al[2] * 85, f], "weighted values and prediction",
       L(566), carried=[0.197 * 55, 0.606 * 70, 0.197 * 85, 0.197 * 55 + 0.606 * 70 + 0.197 * 85])
for ln, k in ((600, 0), (601, 1), (602, 2)):
    T.num(f"{vv[k]:.1f}", vv[k], f"v_{k + 1}", L(ln), role="input")
for ln, k in ((613, 0), (617, 1), (621, 2)):
    T.num(f"{abs(sc[k]):.1f}", abs(sc[k]), f"s(q, k_{k + 1}) (magnitude)", L(ln), role="input")
T.nums(["2.0", "0.135", "3.0", "20.086", "1.0", "0.368"], [2.0, ex[0], 3.0, ex[1], 1.0, ex[2]], "exponentials", L(635))
T.nums(["0.135", "20.086", "0.368", "20.589"], [*ex, ex.sum()], "sum of exponentials", L(641),
       carried=[0.135, 20.086, 0.368, 20.589])
for ln, k, p in ((647, 0, "0.007"), (651, 1, "0.976"), (655, 2, "0.018")):
    e_p = ["0.135", "20.086", "0.368"][k]
    T.nums([e_p, "20.589", p], [ex[k], ex.sum(), a[k]], f"a_{k + 1}", L(ln),
           carried=[float(e_p), 20.589, float(e_p) / 20.589])
T.nums(["0.007", "1.0", "0.976", "5.0", "0.018", "2.0"], [a[0], 1, a[1], 5, a[2], 2], "weights and values", L(669),
       carried=[0.007, 1, 0.976, 5, 0.018, 2])
T.nums(["0.007", "4.880", "0.036", "4.92"], [a[0], a[1] * 5, a[2] * 2, o], "weighted values and output", L(673),
       carried=[0.007, 0.976 * 5, 0.018 * 2, 0.007 + 4.88 + 0.036])
T.nums(["4.92", "5.0"], [o, 5.0], "output, quoted", L(676))
T.num("97.6", 100 * a[1], "top weight in percent", L(682))
T.nums(["1", "0", "0", "1", "1", "1"], X.ravel(), "X", L(717), role="input")
T.row(WQ.ravel(), "W_Q", L(727), role="input")
T.row(WK.ravel(), "W_K", L(728), role="input")
T.row(WV.ravel(), "W_V", L(729), role="input")
T.row(Q.ravel(), "Q = X W_Q", L(737))
T.row(K.ravel(), "K = X W_K", L(741))
T.row(V.ravel(), "V = X W_V", L(745))
for ln, r in ((752, 0), (753, 1), (754, 2)):
    T.row(np.concatenate([Q[r], K[r], V[r]]), f"q, k, v of token {r + 1}", L(ln))
for ln, r in ((768, 0), (769, 1), (770, 2)):
    T.row(S[r], f"QK^T row {r + 1}", L(ln))
T.nums(["2", "2", "1.414"], [2, 2, np.sqrt(2)], "d_k and sqrt(d_k)", L(780))
T.row(Ss.ravel(), "QK^T / sqrt(2)", L(783))
rows = {0: (797, 801, 805, 809), 1: (815, 819, 823, 827), 2: (833, 837, 841, 845)}
pe = {0: ["2.028", "1.000", "2.028"], 1: ["2.028", "2.028", "4.113"], 2: ["4.113", "2.028", "8.337"]}
ps = {0: "5.056", 1: "8.169", 2: "14.478"}
pa = {0: ["0.401", "0.198", "0.401"], 1: ["0.248", "0.248", "0.504"], 2: ["0.284", "0.140", "0.576"]}
for r, (l1, l2, l3, l4) in rows.items():
    T.row(Ss[r], f"scores of row {r + 1}", L(l1), role="input")
    T.nums(pe[r], E[r], f"exponentials of row {r + 1}", L(l2))
    T.num(ps[r], E[r].sum(), f"sum of row {r + 1}", L(l3),     # row 3's sum carries the wrong 8.337
          carried=None if r == 2 else sum(float(p) for p in pe[r]))
    T.nums(pa[r], A[r], f"weights of row {r + 1}", L(l4), carried=[float(p) / float(ps[r]) for p in pe[r]])
for r, (l5, l6) in enumerate(((852, 866), (853, 867), (854, 868))):
    T.row(A[r], f"attention matrix row {r + 1}", L(l5))
    T.row(A[r], f"attention matrix row {r + 1} (again)", L(l6))
T.nums(["57.6", "28.4", "14.0"], 100 * A[2][[2, 0, 1]], "row 3 in percent", L(858))
for ln, r in ((880, 0), (886, 1), (892, 2)):
    T.nums(pa[r], A[r], f"weights in output {r + 1}", L(ln))
    T.row(O[r], f"output {r + 1}", L(ln), carried=np.array([float(p) for p in pa[r]]) @ V)
T.row(O.ravel(), "O", L(898))
T.mark_own_errors()
T.slip("\\sum = 0.135 + 20.086 + 0.368 = 20.589", "\\sum = 0.135 + 20.086 + 0.368 = 20.859", "swapped digits in a sum")
T.slip("= 10.84 + 42.42 + 16.74 \\approx 70.0", "= 10.84 + 42.42 + 16.74 \\approx 76.0", "a wrong prediction")
T.slip("\\text{sum} = 5.056", "\\text{sum} = 5.065", "swapped digits in a row sum")
T.slip("O = \\begin{bmatrix} 0.599 & 0.802", "O = \\begin{bmatrix} 0.599 & 0.820", "swapped digits in an output")
T.write()
