"""fieldA-15: a course's copy of Raimi Karim's illustrated self-attention with no outputs stored: the numbers are
in Markdown (products written out) and in code comments.  Exercise 2 prints target outputs for a changed X that
the reader should reach by changing the weights: targets, not results, so they are not in the truth."""
import numpy as np
from _truth import Truth

X = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1.]])
Wk = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0.]])
Wq = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1.]])
Wv = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0.]])
K, Q, V = X @ Wk, X @ Wq, X @ Wv
S = Q @ K.T
A = np.exp(S - S.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
A_approx = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])   # declared approximation
WV = V[:, None, :] * A_approx.T[:, :, None]
O = WV.sum(0)
print("S", S.tolist(), "A", A.round(5).tolist(), "O (from the approximate A)", O.tolist(), sep="\n")

T = Truth("fieldA-15-supaero-neural-self-attention")
def rows(M, what, cell, needle, last=True):
    c, ln, out = T.find(needle, cell=cell)
    for i, r in enumerate(M):
        T.row(r, f"{what}[{i + 1},:]", (c, ln + i, out), last=last)

for cell, M, what in ((17, K, "K"), (18, V, "V"), (19, Q, "Q")):
    rows(M, what, cell, "[1, 0, 1, 0]")
for M, what, first in ((K, "K", "# tensor([[0., 1., 1.],"), (Q, "Q", "# tensor([[1., 0., 2.],"), (V, "V", "# tensor([[1., 2., 3.],")):
    rows(M, what + " (comment)", 21, first, last=False)
c, ln, _ = T.find("[0, 4, 2]", cell=22)
T.row(K[:, 0], "K^T[1,:]", (c, ln, False))
T.nums(["1", "4", "3"], K[:, 1], "K^T[2,:]", (c, ln + 1, False))
T.nums(["2", "4", "4"], S[0], "S[1,:]", (c, ln + 1, False))
T.row(K[:, 2], "K^T[3,:]", (c, ln + 2, False))
rows(S, "S (comment)", 23, "# tensor([[ 2.,  4.,  4.],", last=False)
T.nums(["0.0", "0.5", "0.5"], A[0], "A[1,:] (declared approximation)", T.find("softmax([2, 4, 4]) =", cell=24), correct=True)
rows(A, "A (comment)", 25, "# tensor([[6.3379e-02", last=False)
c, ln, _ = T.find("[0.0, 0.5, 0.5],", cell=25)
for i in range(3):
    T.row(A[i], f"A[{i + 1},:] (declared approximation)", (c, ln + i, False), correct=True)
c, ln, _ = T.find("1: 0.0 * [1, 2, 3]", cell=26)
for j in range(3):
    T.row(WV[j, 0], f"a_1{j + 1} v_{j + 1}", (c, ln + j, False))
c, ln, _ = T.find("  [0.0, 0.0, 0.0]", cell=28)
for j in range(3):
    T.row(WV[j, 0], f"a_1{j + 1} v_{j + 1} (repeated)", (c, ln + j, False))
T.row(O[0], "O[1,:]", T.find("= [2.0, 7.0, 1.5]", cell=28))
T.nums(["2.0", "7.0", "1.5"], O[0], "O[1,:] (prose)", T.find("The resulting vector", cell=28))
rows(O, "O (comment)", 30, "# tensor([[2.0000, 7.0000, 1.5000],", last=False)
T.mark_own_errors()

T.slip("[1, 1, 1, 1]   [1, 1, 0]   [2, 3, 1]", "[1, 1, 1, 1]   [1, 1, 0]   [2, 3, 2]", "one digit off in K[3,:] by hand")
T.slip("3: 0.5 * [2, 6, 3] = [1.0, 3.0, 1.5]", "3: 0.5 * [2, 6, 3] = [1.0, 3.0, 5.1]", "swapped digits in a weighted value")
T.slip("= [2.0, 7.0, 1.5]\\n", "= [2.0, 7.0, 1.0]\\n", "arithmetic slip in O[1,3]")
T.write()
