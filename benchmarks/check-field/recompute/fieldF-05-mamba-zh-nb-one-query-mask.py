"""fieldF-05: mamba001/ml-roadmap, notebooks/day037_minimal_encoder_decoder_transformer.ipynb (notebook, Chinese
prose with English code comments).  Several small attention computations, each with its inputs printed:
weights with values (0.7, 0.2, 0.1 over three value vectors); one query against three keys (unscaled, then scaled in a
later demo); raw scores through softmax with and without a padding mask; Q = K = V = X self-attention on a printed
4x3 X (drawn by np.random.seed(0) but printed), unscaled; and on a given 3x2 X, scaled by 1/sqrt(2), printed step by
step (scores, weights, outputs) three times over.  The later PyTorch demos draw everything at random and print only
shapes and row sums.  All printed numbers are right (float32 printouts are judged against the float32 replay)."""
import numpy as np
from _truth import Truth


def sm(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def sm32(x):                       # the notebook's own float32 arithmetic, for its 8-digit float32 printouts
    x = x - x.max()
    e = np.exp(x)
    return e / (e.sum() + np.float32(1e-12))


V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
w = np.array([0.7, 0.2, 0.1])
wa = w @ V
Q1 = np.array([1.0, 0.0])
K1 = np.array([[1.0, 0.0], [0.7, 0.2], [-1.0, 0.0]])
s1 = K1 @ Q1
a1 = sm(s1)
o1 = a1 @ V
s2 = np.array([3.0, 1.0, -2.0])
a2 = sm(s2)
a2m = sm(np.array([3.0, -1e9, -2.0]))
s2_32 = s2.astype(np.float32)
a2_32, a2m_32 = sm32(s2_32), sm32(np.array([3.0, -1e9, -2.0], dtype=np.float32))
X4 = np.array([[1.7640524, 0.4001572, 0.978738], [2.2408931, 1.867558, -0.9772779],
               [0.95008844, -0.1513572, -0.10321885], [0.41059852, 0.14404356, 1.4542735]])
Y4 = np.array([sm(X4 @ X4[i]) @ X4 for i in range(4)])
X4_32 = X4.astype(np.float32)
Y4_32 = np.array([(sm32(X4_32 @ X4_32[i])[:, None] * X4_32).sum(0) for i in range(4)])
s1s = s1 / np.sqrt(2)
a1s = sm(s1s)
o1s = a1s @ V
X3 = np.array([[1.0, 0.0], [0.8, 0.2], [0.1, 0.9]])
S3 = X3 @ X3.T / np.sqrt(2)
A3 = np.array([sm(r) for r in S3])
Y3 = A3 @ X3
X3_32 = X3.astype(np.float32)
S3_32 = (X3_32 @ X3_32.T) / np.float32(np.sqrt(2))
A3_32 = np.array([sm32(r) for r in S3_32])
Y3_32 = np.array([(a[:, None] * X3_32).sum(0) for a in A3_32])
print(wa, s1, a1, o1, a2, a2m, Y4, s1s, a1s, o1s, S3, A3, Y3, sep="\n")

T = Truth("fieldF-05-mamba-zh-nb-one-query-mask")
at = T.find("比如 0.7, 0.2, 0.1", cell=6)
T.nums(["0.7", "0.2", "0.1"], w, "w (prose)", at, role="input")
T.nums(["0.7", "0.2", "0.1"], w, "w (prose formula)", T.find("0.7*V1 + 0.2*V2", cell=6), role="input")
for cell in (7, 13):
    for r, tag in enumerate(("# V1", "# V2", "# V3")):
        T.row(V[r], f"V row {r + 1}", T.find(tag, cell=cell), last=False, role="input")
T.row(w, "w", T.find("w = np.array([0.7", cell=7), role="input")
T.row(wa, "sum w_j v_j", T.find("[7.5 2.5]", cell=7, output=True))
T.row(wa, "sum w_j v_j (again)", T.find("array([7.5, 2.5])", cell=8, output=True))
T.row(Q1, "q", T.find("Q = np.array([1.0, 0.0])", cell=13), last=False, role="input")
for r, tag in enumerate(("# K1", "# K2", "# K3")):
    T.row(K1[r], f"k_{r + 1}", T.find(tag, cell=13), last=False, role="input")
T.row(s1, "scores K q (unscaled)", T.find("打分 scores", cell=13, output=True))
T.row(a1, "softmax(scores)", T.find("权重 weights:", cell=13, output=True))
T.row(o1, "out = sum a_j v_j", T.find("输出 out", cell=13, output=True))
T.row(s2, "raw scores", T.find("scores = np.array([3.0", cell=18), role="input")
at = T.find("原分数:", cell=19, output=True)
T.row(s2, "raw scores (printed)", at, last=False, role="input")
T.nums(["0.8756006", "0.11849965", "0.00589975"], a2, "softmax(raw)", at, carried=a2_32)
at = T.find("打掩码:", cell=19, output=True)
T.nums(["3.e+00", "-1.e+09", "-2.e+00"], [3.0, -1e9, -2.0], "masked scores", at)
T.nums(["0.9933072", "0.", "0.00669285"], a2m, "softmax(masked)", at, carried=a2m_32)
rows = sorted(k for k in T.lines if len(k) == 3 and k[0] == 24 and k[2])
for r, k in enumerate(rows):
    T.row(X4[r], f"X (printed, np.random.seed(0)) row {r + 1}", k, role="input")
rows = sorted(k for k in T.lines if len(k) == 3 and k[0] == 25 and k[2])
for r, k in enumerate(rows):
    # float32 arithmetic on the printed X: 8 significant digits printed, so the last ones carry float32 rounding; the
    # error of a weighted sum scales with its largest term (|X| up to 2.24), so allow a few float32 spacings at
    # that size (about 2.4e-7 each), not more
    printed = [p for p in T.lines[k].replace("array([[", "").replace("dtype=float32)", "").replace("[", " ")
               .replace("]", " ").replace(",", " ").split() if p]
    assert len(printed) == 3, printed
    for c, p in enumerate(printed):
        ok = abs(float(p) - Y4[r, c]) <= 4 * np.spacing(np.float32(np.abs(X4).max()))
        T.num(p, Y4[r, c], f"Y = softmax(X X^T) X row {r + 1}[{c + 1}]", k, correct=bool(ok))
# the demo cell: its inputs in the source, its printout
at = T.find("V = np.array([[10., 0.]", cell=31)
T.row(V.ravel(), "V (demo)", at, last=False, role="input")
T.row(w, "w (demo)", T.find("w = np.array([0.7", cell=31), last=False, role="input")
T.nums(["7.", "3."], wa, "sum w_j v_j (comment, ~)", T.find("# ~[7., 3.]", cell=31))
T.row(Q1, "q (demo)", T.find("Q = np.array([1., 0.]", cell=31), last=False, role="input")
T.row(K1.ravel(), "K (demo)", T.find("K = np.array([[1., 0.]", cell=31), last=False, role="input")
for r, tag in enumerate(("X = np.array([[1.0, 0.0],", "[0.8, 0.2],", "[0.1, 0.9]]")):
    T.row(X3[r], f"X3 row {r + 1} (demo)", T.find(tag, cell=31), last=False, role="input")
T.row(wa, "sum w_j v_j (demo)", T.find("weighted_average: [7.5 2.5]", cell=32, output=True))
at = T.find("scores: [", cell=32, output=True)
T.nums(["0.707", "0.495", "-0.707", "0.487", "0.394", "0.118", "5.466", "4.534"],
       list(s1s) + list(a1s) + list(o1s), "scaled one-query scores | weights | out (demo)", at)
for r, tag in enumerate((" [[1.  0. ]", " [0.8 0.2]", " [0.1 0.9]] ")):
    T.row(X3[r], f"X3 row {r + 1} (printed)", T.find(tag, cell=32, output=True), role="input")
for r, tag in enumerate((" [[0.729 0.271]", " [0.693 0.307]", " [0.545 0.455]]")):
    T.row(Y3[r], f"Y3 row {r + 1} (demo)", T.find(tag, cell=32, output=True))
for r, tag in enumerate(("X = np.array([[1.0, 0.0],", "[0.8, 0.2],", "[0.1, 0.9]]")):
    T.row(X3[r], f"X3 row {r + 1}", T.find(tag, cell=33), last=False, role="input")


def out_rows(cell, n):
    ks = sorted(k for k in T.lines if len(k) == 3 and k[0] == cell and k[2] and any(c.isdigit() for c in T.lines[k]))
    assert len(ks) == n, (cell, ks)
    return ks


for r, k in enumerate(out_rows(35, 3)):
    T.row(S3[r], f"S3 = X X^T / sqrt(2) row {r + 1}", k, carried=S3_32[r])
for cell, what in ((37, "A3"), (44, "A3 (again)")):
    for r, k in enumerate(out_rows(cell, 3)):
        T.row(A3[r], f"{what} row {r + 1}", k, carried=A3_32[r])
for cell, what in ((39, "Y3"), (42, "Y3 (loop)"), (46, "Y3 (again)")):
    for r, k in enumerate(out_rows(cell, 3)):
        T.row(Y3[r], f"{what} row {r + 1}", k, carried=Y3_32[r])
T.row(Y3[2], "Y3 row 3 (one query)", out_rows(41, 1)[0], carried=Y3_32[2])
for r, k in enumerate(out_rows(50, 4)[2:]):
    T.row([1.0] * 5, f"(random) causal attention row sums, batch {r + 1}", k)
T.mark_own_errors()
T.slip("权重 weights: [0.53300543 0.39486013", "权重 weights: [0.53300543 0.39468013", "swapped digits in a weight")
T.slip("-> softmax [0.8756006  0.11849965", "-> softmax [0.8756006  0.11489965", "swapped digits in a softmax")
T.slip("out: [5.466 4.534]", "out: [5.466 4.543]", "swapped digits in an output")
T.slip("[0.56568545, 0.48083267, 0.18384776]", "[0.56568545, 0.48038267, 0.18384776]", "swapped digits in a score")
T.write()
