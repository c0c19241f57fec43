"""fieldF-02: UnfoldDataScience/YouTube-Videos-files, "Multi Head Attention/Attention (1).ipynb" (English notebook;
the same blob is also stored under "LLM for application development/").  Two examples, both with printed givens:
(1) three 3-wide word embeddings, W_Q = W_K and W_V given, Q, V, the raw scores, the scores over sqrt(3), the
softmax weights and the output printed; (2) a second X (3x3) with identity weights (Q = K = V = X), causal mask,
masked scores, weights and output printed.  All printed numbers agree with a float64 recomputation."""
import numpy as np
from _truth import Truth


def softmax(s):
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


X = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.3], [1.0, 1.0, 0.2]])
WQ = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.0, 1.0, 0.5]])
WK = WQ.copy()
WV = np.array([[0.5, 1.0, 0.2], [1.0, 0.5, 0.3], [1.0, 0.5, 0.1]])
Q, K, V = X @ WQ, X @ WK, X @ WV
S = Q @ K.T
Ssc = S / np.sqrt(3)
A = softmax(Ssc)
O = A @ V
# the second example: identity weights, causal mask
X2 = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
S2 = X2 @ X2.T / np.sqrt(3)
M = np.tril(np.ones((3, 3)))
E2 = np.exp(S2) * M
A2 = E2 / E2.sum(1, keepdims=True)
O2 = A2 @ X2
print(S, Ssc, A, O, S2, A2, O2, sep="\n")

T = Truth("fieldF-02-unfold-en-nb-qkv-weights")
for r, w in enumerate(('"The"', '"cat"', '"sat"')):
    T.row(X[r], f"x_{w}", T.find(f"{w}: np.array(", cell=1), role="input")
T.row(WQ.ravel(), "W_Q", T.find("W_Q = np.array(", cell=4), role="input")
T.row(WK.ravel(), "W_K", T.find("W_K = np.array(", cell=4), role="input")
T.row(WV.ravel(), "W_V", T.find("W_V = np.array(", cell=4), role="input")
outs = {2: (X, "X (printed)", "input"), 5: (V, "V", "derived"), 6: (Q, "Q", "derived"), 8: (S, "S = QK^T", "derived"),
        11: (Ssc, "S/sqrt(3)", "derived"), 13: (A, "A", "derived"), 15: (O, "O = AV", "derived")}
for cell, (M_, what, role) in outs.items():
    lines = [k for k in T.lines if len(k) == 3 and k[0] == cell and k[2] and any(ch.isdigit() for ch in T.lines[k])]
    lines.sort()
    assert len(lines) == 3, (cell, lines)
    for r, k in enumerate(lines):
        T.row(M_[r], f"{what}[{r + 1},:]", k, role=role)
for r, w in enumerate(('"The"', '"cat"', '"sat"')):
    T.row(X2[r], f"x2_{w}", T.find(f"# {w}", cell=16), last=False, role="input")
lines = sorted(k for k in T.lines if len(k) == 3 and k[0] == 18 and k[2])
for r, k in enumerate(lines):
    T.row(S2[r, :r + 1], f"masked S2[{r + 1},:{r + 1}]", k, last=False)
lines = sorted(k for k in T.lines if len(k) == 3 and k[0] == 19 and k[2])
for r, k in enumerate(lines):
    T.row(A2[r], f"A2[{r + 1},:] (causal)", k)
lines = sorted(k for k in T.lines if len(k) == 3 and k[0] == 20 and k[2] and any(ch.isdigit() for ch in T.lines[k]))
assert len(lines) == 15, lines
for blk, (M_, what) in enumerate(((X2, "Q2 = X2 I"), (X2, "K2 = X2 I"), (X2, "V2 = X2 I"), (A2, "A2 (printed again)"),
                                  (O2, "O2 = A2 V2"))):
    for r in range(3):
        T.row(M_[r], f"{what}[{r + 1},:]", lines[3 * blk + r])
T.mark_own_errors()
T.slip("2.1125 2.275 ", "2.1125 2.257 ", "swapped digits in a raw score")
T.slip("0.37482567 0.41169404", "0.37482567 0.41196404", "swapped digits in a weight")
T.slip("[1.42960874 1.290482   0.40740516]", "[1.42960874 1.290482   0.47040516]", "swapped digits in an output")
T.slip("[0.73554154 0.73554154 0.52891692]", "[0.73554154 0.75354154 0.52891692]", "swapped digits in the causal output")
T.write()
