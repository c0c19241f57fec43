"""fieldA-09: Raimi Karim's illustrated self-attention (Colab copy): X 3x4, W_K/W_Q/W_V 4x3, unscaled scores,
softmax, then a declared approximation of the weights ("for readability, approximate the above") that the
weighted values and outputs are computed from; torch first, then the same in TensorFlow."""
import numpy as np
from _truth import Truth

X = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1.]])
Wk = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0.]])
Wq = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1.]])
Wv = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0.]])
K, Q, V = X @ Wk, X @ Wq, X @ Wv
S = Q @ K.T
A = np.exp(S - S.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
A_approx = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])   # the document's declared approximation
WV = V[:, None, :] * A_approx.T[:, :, None]          # [key j, query i, :] = a_ij v_j
O_approx = WV.sum(0)
O_exact = A @ V
# TensorFlow prints float32 to 8 digits: what float32 arithmetic gives is what a careful reader expects there
S32 = S.astype(np.float32); E32 = np.exp(S32 - S32.max(1, keepdims=True)); A32 = E32 / E32.sum(1, keepdims=True)
O32 = (V.astype(np.float32)[:, None, :] * A_approx.astype(np.float32).T[:, :, None]).sum(0)
print("K", K.tolist(), "Q", Q.tolist(), "V", V.tolist(), "S", S.tolist(), sep="\n")
print("A\n", A, "\nO from the approximate A\n", O_approx, "\nO exact\n", O_exact)

T = Truth("fieldA-09-ada-illustrated-colab")
def rows(M, what, cell, first_needle, output=None, last=True, carried=None):
    c, ln, out = T.find(first_needle, cell=cell, output=output)
    for i, r in enumerate(M):
        T.row(r, f"{what}[{i + 1},:]", (c, ln + i, out), last=last,
              carried=None if carried is None else carried[i])

approx = dict(carried=None)
# cell 15-17: the products written out in Markdown (last three numbers of each line)
for cell, M, what in ((15, K, "K"), (16, V, "V"), (17, Q, "Q")):
    rows(M, what, cell, "[1, 0, 1, 0]")
# cell 19: comments and output
for M, what, first in ((K, "K", "# tensor([[0., 1., 1.],"), (Q, "Q", "# tensor([[1., 0., 2.],"), (V, "V", "# tensor([[1., 2., 3.],")):
    rows(M, what + " (comment)", 19, first, last=False)
rows(K, "K", 19, "tensor([[0., 1., 1.],", output=True)
rows(Q, "Q", 19, "tensor([[1., 0., 2.],", output=True)
rows(V, "V", 19, "tensor([[1., 2., 3.],", output=True)
# cell 20: K^T rows and the first row of scores
c, ln, _ = T.find("[0, 4, 2]", cell=20)
T.row(K[:, 0], "K^T[1,:]", (c, ln, False))
T.nums(["1", "4", "3"], K[:, 1], "K^T[2,:]", (c, ln + 1, False))
T.nums(["2", "4", "4"], S[0], "S[1,:]", (c, ln + 1, False))
T.row(K[:, 2], "K^T[3,:]", (c, ln + 2, False))
rows(S, "S (comment)", 21, "# tensor([[ 2.,  4.,  4.],", last=False)
rows(S, "S", 21, "tensor([[ 2.,  4.,  4.],", output=True)
# cell 22: softmax of row 1, at the declared approximation
at = T.find("softmax([2, 4, 4]) =", cell=22)
T.nums(["0.0", "0.5", "0.5"], A[0], "A[1,:] (declared approximation)", at, correct=True)
c, ln, _ = T.find("# tensor([[6.3379e-02", cell=23)
for i in range(3):
    T.row(A[i], f"A[{i + 1},:] (comment)", (c, ln + i, False), last=False)
c, ln, _ = T.find("tensor([[6.3379e-02", cell=23, output=True)
for i in range(3):
    T.row(A[i], f"A[{i + 1},:]", (c, ln + i, True))
c, ln, _ = T.find("[0.0, 0.5, 0.5],", cell=23)
for i in range(3):
    T.row(A[i], f"A[{i + 1},:] (declared approximation)", (c, ln + i, False), correct=True)
c, ln, _ = T.find("tensor([[0.0000, 0.5000, 0.5000],", cell=23, output=True)
for i in range(3):
    T.row(A_approx[i], f"A[{i + 1},:] (declared approximation, printed)", (c, ln + i, True))
# cell 24: a_1j v_j by hand, from the approximate weights
c, ln, _ = T.find("1: 0.0 * [1, 2, 3]", cell=24)
for j in range(3):
    at = (c, ln + j, False)
    T.row(WV[j, 0], f"a_1{j + 1} v_{j + 1}", at)
# cell 25 output: weighted values [j][i]
c, ln, _ = T.find("tensor([[[0.0000, 0.0000, 0.0000],", cell=25, output=True)
for j in range(3):
    for i in range(3):
        T.row(WV[j, i], f"a_{i + 1}{j + 1} v_{j + 1}", (c, ln + 4 * j + i, True))
# cell 26: the sum by hand
c, ln, _ = T.find("  [0.0, 0.0, 0.0]", cell=26)
for j in range(3):
    T.row(WV[j, 0], f"a_1{j + 1} v_{j + 1} (repeated)", (c, ln + j, False))
T.row(O_approx[0], "O[1,:]", T.find("= [2.0, 7.0, 1.5]", cell=26), carried=None)
T.nums(["2.0", "7.0", "1.5"], O_approx[0], "O[1,:] (prose)", T.find("The resulting vector", cell=26))
rows(O_approx, "O (comment)", 28, "# tensor([[2.0000, 7.0000, 1.5000],", last=False)
rows(O_approx, "O", 28, "tensor([[2.0000, 7.0000, 1.5000],", output=True)
# the TensorFlow half
rows(K, "K (tf)", 33, "[[0. 1. 1.]", output=True); rows(Q, "Q (tf)", 33, "[[1. 0. 2.]", output=True)
rows(V, "V (tf)", 33, "[[1. 2. 3.]", output=True)
rows(S, "S (tf)", 34, "[[ 2.  4.  4.]", output=True)
c, ln, _ = T.find("[[6.3378938e-02", cell=35, output=True)
for i in range(3):                 # float32 softmax: within a few float32 ulps of exact is what it can print
    T.row(A[i], f"A (tf)[{i + 1},:]", (c, ln + i, True), correct=True)
    assert all(abs(float(p) - x) <= 4 * np.finfo(np.float32).eps * x for p, x in
               zip(T.numbers[-1 - 2]["printed"].split()[:0] or [n["printed"] for n in T.numbers[-3:]], A[i]))
c, ln, _ = T.find("[0.0, 0.5, 0.5],", cell=35)
for i in range(3):
    T.row(A[i], f"A[{i + 1},:] (tf, declared approximation)", (c, ln + i, False), correct=True)
rows(A_approx, "A (tf, approximation printed)", 35, "[[0.  0.5 0.5]", output=True)
c, ln, _ = T.find("[[[0.  0.  0. ]", cell=36, output=True)
for j in range(3):
    for i in range(3):
        T.row(WV[j, i], f"a_{i + 1}{j + 1} v_{j + 1} (tf)", (c, ln + 4 * j + i, True))
rows(O_approx, "O (tf)", 37, "[[2.        7.        1.5      ]", output=True, carried=O32)
T.mark_own_errors()

T.slip("[0, 2, 0, 2] x [0, 1, 0] = [4, 4, 0]", "[0, 2, 0, 2] x [0, 1, 0] = [4, 0, 4]", "transposed entries in K[2,:] by hand")
T.slip("[1, 0, 2] x [1, 4, 3] = [2, 4, 4]", "[1, 0, 2] x [1, 4, 3] = [2, 4, 6]", "arithmetic slip in S[1,3] by hand")
T.slip("2: 0.5 * [2, 8, 0] = [1.0, 4.0, 0.0]", "2: 0.5 * [2, 8, 0] = [1.0, 4.5, 0.0]", "arithmetic slip in a weighted value")
T.slip('"        [2.0000, 7.8000, 0.3000]])\\n"', '"        [2.0000, 8.7000, 0.3000]])\\n"', "swapped digits in O[3,2] (output)")
T.write()
