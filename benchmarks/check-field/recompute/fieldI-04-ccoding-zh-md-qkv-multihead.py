"""fieldI-04: CCODING04/llm-math-foundations, chapter07-attention-math/README.md (Chinese chapter in Markdown with
LaTeX; saved from the stored index at its commit, see the sources file).  Two worked examples:
(1) single head, Q, K, V (3x4) given: s_11, s_12, s_13 written out, S = QK^T, S/2, the causal mask, the softmax of row 3
by hand (exponentials, sum, weights, percentages), output_3 = A_3 V by hand, and the same output quoted in code;
(2) two heads: X (3x4), W_Q, W_K, W_V, W_O (4x4) given; Q, K, V, the head split (columns 0,2 and 1,3), Q_h K_h^T,
the scores over sqrt(2), the softmax, head outputs, the concatenation and Concat W_O.
Also the side example softmax([2, 1, 0]) = [0.67, 0.24, 0.09] and softmax([20, 10, 0]) = [1.00, 0.00, 0.00].
Each number is judged against the exact value of the quantity it names (from the document's givens), rounded at its
own precision.  Own errors: in (1) rows 2 and 3 of S are wrong (0.57, 0.67, 0.90 and -0.54, 0.37, 1.77, printed
-0.04, 0.15, 0.83 and -0.53, 0.56, 1.39), and everything computed from row 3 (S/2, the exponentials, the weights
0.187/0.323/0.489 for 0.174/0.274/0.552, the output [0.107, 0.708, 0.695, 0.095] for [0.053, 0.703, 0.737, 0.115])
follows the wrong row; in (2) Q, K and V are not X W (e.g. Q row 1 is [0.30, 0.36, 0.09, 0.20], printed
[0.30, -0.13, 0.24, 0.09]), so every later matrix of the example is off as well (each line holding a wrong number is
listed; the later ones follow the document's own wrong Q, K, V)."""
import re

import numpy as np
from _truth import Truth

Q = np.array([[1.0, 0.5, -0.3, 0.8], [0.2, 1.0, 0.4, -0.1], [-0.5, 0.3, 1.2, 0.6]])
K = np.array([[0.9, 0.3, 0.1, -0.5], [0.1, 0.8, -0.2, 0.7], [-0.3, 0.6, 1.0, 0.4]])
V = np.array([[1.1, 0.4, -0.2, 0.5], [0.3, 0.9, 0.6, -0.3], [-0.4, 0.7, 1.1, 0.2]])
S = Q @ K.T
Sh = S / 2
A = np.exp(Sh) / np.exp(Sh).sum(1, keepdims=True)
O = A @ V
X = np.array([[1.0, 0.5, 0.3, 0.1], [0.8, 1.2, 0.4, 0.6], [0.2, 0.7, 1.1, 0.9]])
WQ = np.array([[0.1, 0.3, -0.1, 0.2], [0.4, -0.2, 0.3, 0.1], [-0.1, 0.5, 0.2, -0.3], [0.3, 0.1, -0.2, 0.4]])
WK = np.array([[0.2, -0.1, 0.3, 0.1], [-0.3, 0.4, 0.1, 0.2], [0.1, 0.2, -0.3, 0.1], [0.4, -0.1, 0.2, 0.3]])
WV = np.array([[0.3, 0.1, 0.2, -0.1], [-0.2, 0.4, 0.1, 0.3], [0.1, -0.3, 0.4, 0.2], [0.4, 0.2, -0.1, 0.1]])
WO = np.array([[0.2, -0.1, 0.3, 0.1], [-0.1, 0.3, -0.2, 0.4], [0.3, 0.1, 0.2, -0.1], [0.1, 0.2, 0.1, 0.3]])
Qm, Km, Vm = X @ WQ, X @ WK, X @ WV
H = {1: [0, 2], 2: [1, 3]}
sm = lambda x: np.exp(x - x.max(1, keepdims=True)) / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True)  # noqa: E731
raw = {h: Qm[:, c] @ Km[:, c].T for h, c in H.items()}
sc = {h: raw[h] / np.sqrt(2) for h in H}
al = {h: sm(sc[h]) for h in H}
hd = {h: al[h] @ Vm[:, H[h]] for h in H}
concat = np.concatenate([hd[1], hd[2]], 1)
Y = concat @ WO
print(S, A, O, Qm, Km, Vm, al[1], al[2], concat, Y, sep="\n")

T = Truth("fieldI-04-ccoding-zh-md-qkv-multihead")
L = lambda n: (None, n, False)  # noqa: E731


def mat(ln, exact, what, k=-1, **kw):
    """The numbers inside the k-th bmatrix on line ln (default the last), in order, against exact."""
    body = re.findall(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", T._line(L(ln)))[k]
    printed = re.findall(r"-?\d+\.?\d*", body)
    assert len(printed) == len(list(exact)), (ln, printed)
    T.nums(printed, exact, what, L(ln), **kw)


sm2 = np.exp([2, 1, 0]) / np.exp([2, 1, 0]).sum()
sm20 = np.exp(np.array([20, 10, 0]) - 20) / np.exp(np.array([20, 10, 0]) - 20).sum()
T.nums(["0.67", "0.24", "0.09"], sm2, "Softmax([2, 1, 0])", L(175))
T.nums(["1.00", "0.00", "0.00"], sm20, "Softmax([20, 10, 0])", L(176))
# (1) single head
for r in range(3):
    T.row(Q[r], f"Q[{r + 1}]", L(598 + r), role="input", last=False)
    T.row(K[r], f"K[{r + 1}]", L(602 + r), role="input", last=False)
    T.row(V[r], f"V[{r + 1}]", L(606 + r), role="input", last=False)
for j, ln in enumerate((613, 615, 617)):
    prods = Q[0] * K[j]
    text = T._line(L(ln)).split("=")[-2]
    printed = re.findall(r"\d+\.?\d*", text)
    T.nums(printed, np.abs(prods), f"|q_1[i] k_{j + 1}[i]| (terms of s_1{j + 1})", L(ln))
    T.nums([T._line(L(ln)).split("= ")[-1].rstrip("$")], [S[0, j]], f"s_1{j + 1} = q_1 . k_{j + 1}", L(ln))
mat(621, S.ravel(), "S = QK^T")
T.nums(["4", "2"], [4, 2], "d_k, sqrt(d_k)", L(625))
mat(627, Sh.ravel(), "S / 2")
mat(631, [Sh[0, 0], Sh[1, 0], Sh[1, 1], *Sh[2]], "S/2 + causal mask, kept entries")
T.nums(["-0.265", "0.28", "0.695"], Sh[2], "row 3 of S/2", L(639))
T.nums(["-0.265", "0.767", "0.28", "1.323", "0.695", "2.004"],
       [Sh[2, 0], np.exp(Sh[2, 0]), Sh[2, 1], np.exp(Sh[2, 1]), Sh[2, 2], np.exp(Sh[2, 2])], "row 3: s, e^s", L(641))
T.nums(["0.767", "1.323", "2.004", "4.094"], [*np.exp(Sh[2]), np.exp(Sh[2]).sum()], "e^s of row 3 and their sum", L(643))
T.nums(["0.187", "0.323", "0.489"], A[2], "A row 3", L(645))
T.nums(["48.9", "32.3", "18.7"], [100 * A[2, 2], 100 * A[2, 1], 100 * A[2, 0]], "A row 3 in percent", L(647))
T.nums(["0.187", "0.323", "0.489"], A[2], "A row 3 in output_3", L(651))
T.nums(["0.187", "1.1", "0.4", "-0.2", "0.5", "0.323", "0.3", "0.9", "0.6", "-0.3", "0.489", "-0.4", "0.7", "1.1", "0.2"],
       [A[2, 0], *V[0], A[2, 1], *V[1], A[2, 2], *V[2]], "a_3j and v_j in output_3", L(653))
T.row(np.concatenate([A[2, 0] * V[0], A[2, 1] * V[1], A[2, 2] * V[2]]), "a_3j v_j", L(655))
T.row(O[2], "output_3", L(657))
T.row(O[2], "output_3 quoted in the code", L(694))
T.row(O[2], "output_3 quoted in the prose", L(706), last=False)
for r in range(3):
    T.row(Q[r], f"Q_manual[{r + 1}]", L(667 + r), role="input")
    T.row(K[r], f"K_manual[{r + 1}]", L(671 + r), role="input")
    T.row(V[r], f"V_manual[{r + 1}]", L(675 + r), role="input")
# (2) two heads
mat(741, X.ravel(), "X", role="input")
for ln, W, M, nm in ((749, WQ, Qm, "Q"), (754, WK, Km, "K"), (759, WV, Vm, "V")):
    mat(ln, W.ravel(), f"W_{nm}", role="input")
    mat(ln + 1, M.ravel(), f"{nm} = X W_{nm}")
for ln, M, nm in ((772, Qm, "Q"), (777, Km, "K"), (782, Vm, "V")):
    mat(ln, M[:, H[1]].ravel(), f"{nm}_1 (columns 0, 2)")
    mat(ln + 1, M[:, H[2]].ravel(), f"{nm}_2 (columns 1, 3)")
for ln, h in ((793, 1), (801, 2)):
    mat(ln, Qm[:, H[h]].ravel(), f"Q_{h} in Q_{h} K_{h}^T")
    mat(ln + 1, Km[:, H[h]].T.ravel(), f"K_{h}^T")
    mat(ln + 2, raw[h].ravel(), f"Q_{h} K_{h}^T")
T.nums(["2", "2", "1.414"], [2, 2, np.sqrt(2)], "d_k, sqrt(d_k)", L(808))
T.nums(["1.414"], [np.sqrt(2)], "sqrt(2), head 1", L(810))
T.nums(["1.414"], [np.sqrt(2)], "sqrt(2), head 2", L(816))
mat(813, sc[1].ravel(), "scores_1 = Q_1 K_1^T / sqrt(2)")
mat(819, sc[2].ravel(), "scores_2 = Q_2 K_2^T / sqrt(2)")
mat(829, al[1].ravel(), "alpha_1")
mat(835, al[2].ravel(), "alpha_2")
T.nums(["0.338", "0.348", "0.353", "0.357"], [*al[2][2], al[1][0, 1]], "alpha_2 row 3 and alpha_1[1,2] quoted", L(838))
mat(845, hd[1].ravel(), "head_1 = alpha_1 V_1")
mat(851, hd[2].ravel(), "head_2 = alpha_2 V_2")
mat(859, concat.ravel(), "Concat")
mat(867, WO.ravel(), "W_O", role="input")
mat(871, Y.ravel(), "Concat W_O")
for r in range(3):
    T.row(X[r], f"X[{r + 1}] (code)", L(894 + r), role="input", last=False)
for base, W, nm in ((898, WQ, "W_Q"), (903, WK, "W_K"), (908, WV, "W_V"), (913, WO, "W_O")):
    for r in range(4):
        T.row(W[r], f"{nm}[{r + 1}] (code)", L(base + r), role="input", last=False)
T.mark_own_errors({
    (None, 621): "rows 2 and 3 of S are wrong: q_2.k_j = 0.57, 0.67, 0.90 and q_3.k_j = -0.54, 0.37, 1.77",
    (None, 750): "Q is not X W_Q (row 1 is [0.30, 0.36, 0.09, 0.20]); the later matrices of the example follow it",
    (None, 755): "K is not X W_K (row 1 is [0.12, 0.15, 0.28, 0.26])",
    (None, 760): "V is not X W_V (row 1 is [0.27, 0.23, 0.36, 0.12])"})
T.slip("0.5 \\times 0.3 + (-0.3) \\times 0.1 + 0.8 \\times (-0.5) = 0.9 + 0.15 - 0.03 - 0.4 = 0.62$$",
       "0.5 \\times 0.3 + (-0.3) \\times 0.1 + 0.8 \\times (-0.5) = 0.9 + 0.15 - 0.03 - 0.4 = 0.26$$",
       "swapped digits in s_11")
T.slip("0.1 + 0.4 + 0.06 + 0.56 = 1.12$$", "0.1 + 0.4 + 0.06 + 0.56 = 1.21$$", "swapped digits in s_12")
T.slip("-0.3 + 0.3 - 0.3 + 0.32 = 0.02$$", "-0.3 + 0.3 - 0.3 + 0.23 = 0.02$$", "swapped digits in a term of s_13")
T.slip("Softmax([2, 1, 0]) = [0.67, 0.24, 0.09]", "Softmax([2, 1, 0]) = [0.67, 0.42, 0.09]",
       "swapped digits in a softmax weight")
T.write()
