"""fieldH-01: rukenx/attention-by-hand, 02_causal_masked_self_attention/solution_by_hand.tex (English LaTeX solution
of an exercise, by hand).  Starts from Q, K, V given (3x2 each, "I like cats", d_k = 2): the unmasked scaled scores,
the causal mask added, the masked softmax, the causal output, the unmasked output quoted from the previous
exercise for comparison, and a bonus that zeroes the unmasked first row after softmax.  Every printed number agrees
with a float64 recomputation at its own precision (4 decimals)."""
import numpy as np
from _truth import Truth

Q = np.array([[1, 0], [0, 1], [1, 1]], float)
K = np.array([[1, 1], [0, 1], [1, 2]], float)
V = np.array([[1, 0], [1, 1], [2, 1]], float)
S = Q @ K.T / np.sqrt(2)
M = np.triu(np.full((3, 3), -np.inf), 1)
Sm = S + M
Ac = np.exp(Sm) / np.exp(Sm).sum(1, keepdims=True)
Oc = Ac @ V
Au = np.exp(S) / np.exp(S).sum(1, keepdims=True)
Ou = Au @ V
print(S, Ac, Oc, Au, Ou, sep="\n")

T = Truth("fieldH-01-rukenx-en-tex-causal-qkv")
L = lambda n: (None, n, False)
for r in range(3):
    T.row(Q[r], f"Q[{r + 1},:]", L(27 + r), role="input")
    T.row(K[r], f"K[{r + 1},:]", L(34 + r), role="input")
    T.row(V[r], f"V[{r + 1},:]", L(41 + r), role="input")
T.num("2", 2, "d_k under the root", L(49), role="input")
for r in range(3):
    T.row(S[r], f"S_scaled = QK^T/sqrt(2)[{r + 1},:]", L(52 + r))
    T.row(np.where(np.isinf(M[r]), 0, M[r])[: r + 1], f"mask M[{r + 1},:] (finite entries)", L(64 + r), role="input",
          last=False)
    T.row(Sm[r, : r + 1], f"S_masked[{r + 1},:] (visible entries)", L(75 + r), last=False)
    T.row(Ac[r], f"A_causal[{r + 1},:]", L(90 + r))
    T.row(Oc[r], f"O_causal[{r + 1},:]", L(106 + r))
    T.row(Ou[r], f"O_unmasked (Exercise 01)[{r + 1},:]", L(117 + r))
T.row(Au[0], "unmasked first row of A", L(134))
T.row([Au[0, 0], 0, 0], "first row zeroed after softmax", L(138))
T.num("0.4011", Au[0, 0], "row sum of the zeroed row", L(140))
T.row(Ac[0], "first row masked before softmax", L(142))
T.mark_own_errors()
T.slip("0.2840&0.1400&0.5760", "0.2480&0.1400&0.5760", "swapped digits in a causal weight")
T.slip("1.5760&0.7160\n\\end{bmatrix}.\n\\]\n\nCompare", "1.5760&0.7610\n\\end{bmatrix}.\n\\]\n\nCompare",
       "swapped digits in the causal output")
T.slip("1.5035&0.7517", "1.5035&0.7571", "swapped digits in the quoted unmasked output")
T.slip("0.7071&0.7071&1.4142\\\\", "0.7071&0.7071&1.4124\\\\", "swapped digits in a scaled score")
T.write()
