"""fieldD-02: yeasy/llm_internals 2.2 (Chinese book chapter, Markdown with $$ math).  Starts from Q, K, V.

Givens: Q, K, V (3x4, integers) in one $$ line; d_k = 4.  The chapter prints S = QK^T, S / 2, the row softmax A (3
decimals) and Output = AV (3 decimals) in LaTeX, then the same computation as a torch program with its printout
(4 decimals).  Before that, a softmax table of five scores and a table of sqrt(d_k) (the standard deviation of a dot
product of d_k unit-variance terms) with its +-2 sigma range.  No arithmetic error."""
import numpy as np
from _truth import Truth

Q = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], float)
K = np.array([[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]], float)
V = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]], float)
S = Q @ K.T
Sp = S / np.sqrt(4)
A = np.exp(Sp) / np.exp(Sp).sum(1, keepdims=True)
O = A @ V
z = np.array([2.0, 1.0, 0.1, -0.5, -1.0])
p = np.exp(z) / np.exp(z).sum()
print(S, Sp, A.round(4), O.round(4), p.round(4), sep="\n")

T = Truth("fieldD-02-yeasy-zh-qkv-book")
# variance table: sd = sqrt(d_k), typical range +-2 sd
at = T.find("当 $$d_k = 64$$ 时，标准差为 8")
T.num("8", np.sqrt(64), "sqrt(64)", at)
T.num("22.6", np.sqrt(512), "sqrt(512)", at)
for dk, sd, rng in ((16, "4.0", "8"), (64, "8.0", "16"), (128, "11.3", "22.6"), (512, "22.6", "45.2")):
    at = T.find(f"| {dk} | {dk} | {sd} |")
    T.num(sd, np.sqrt(dk), f"sd of a {dk}-term dot product", at)
    T.num(rng, 2 * np.sqrt(dk), f"2 sd for d_k={dk}", at, carried=2 * float(sd))  # 45.2 = 2 x the printed 22.6
# softmax table
for k, (s, w) in enumerate(zip(["2.0", "1.0", "0.1", "-0.5", "-1.0"], ["0.606", "0.223", "0.091", "0.050", "0.030"])):
    at = T.find(f"| {k + 1}    | {s}")
    T.num(w, p[k], f"softmax(scores)[{k + 1}]", at)
T.num("60.6", 100 * p[0], "softmax[1] in percent", T.find("获得了约 60.6%"))
# LaTeX worked example
at = T.find("$$S = \\begin{bmatrix} 1 & 1 & 2")
T.row(S.ravel(), "S = QK^T", at)
at = T.find("$$S' = \\begin{bmatrix}")
T.row(Sp.ravel(), "S' = S/2", at)
at = T.find("$$A = \\text{softmax}(S') \\approx")
T.row(A.ravel(), "A", at)
at = T.find("$$\\text{Output} \\approx")
T.row(O.ravel(), "Output = AV", at)
# torch printout
for name, M, first in (("S", S, " tensor([[1., 1., 2.],"), ("S/2", Sp, " tensor([[0.5000, 0.5000, 1.0000],"),
                       ("A", A, " tensor([[0.2741, 0.2741, 0.4519],"), ("Output", O, " tensor([[0.7259, 0.7259, 0.2741, 0.2741],")):
    r0 = T.find(first)[1]
    for i in range(3):
        T.row(M[i], f"{name}[{i + 1},:] (printout)", (None, r0 + i, False))
T.row(A.sum(1), "row sums of A", T.find("每行之和: tensor([1., 1., 1.])"))
T.row([3, 4], "output shape", T.find("输出形状: torch.Size([3, 4])"), last=False)
T.slip("0.384 & 0.384 & 0.233", "0.384 & 0.384 & 0.323", "swapped digits in A[2,3] (LaTeX)")
T.slip("0.814 & 0.494 & 0.186", "0.814 & 0.449 & 0.186", "swapped digits in Output[3,2] (LaTeX)")
T.slip("[0.5065, 0.1863, 0.3072]", "[0.5065, 0.1863, 0.3702]", "swapped digits in A[3,3] (printout)")
T.slip("| 3    | 0.1     | 0.091       |", "| 3    | 0.1     | 0.081       |", "one digit off in the softmax table")
T.mark_own_errors()
T.write()
