"""fieldE-03: Open-Superintelligence-Lab site, lesson "calculating attention scores" (English Markdown).
Q and K (3 positions, 4 wide) are given as tensors; the lesson works out Q K^T (row 0 term by term), divides by
sqrt(4) = 2 and prints the softmax weights to 3 places, then reads them in prose.  Rows 0 and 1 print their last weight
0.308 where softmax gives 0.30719 (0.307): the author's (the row was made to sum to 1).  The scaling section's
+-24 and +-3 follow from d = 64; its 0.95 / 0.9999999 are for unstated other scores and are not in the truth.  The
later 3x3 "example output" and the "The cat sat" matrix are illustrative givens (no inputs); Matrix[1,1] = 0.7 and
70% are read from the first."""
import numpy as np
from _truth import Truth

Q = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
K = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]])
S = Q @ K.T
Ssc = S / 2
A = np.exp(Ssc) / np.exp(Ssc).sum(1, keepdims=True)
print(S, Ssc, A.round(5), sep="\n")

T = Truth("fieldE-03-osl-en-qk-scores")
for j, line in enumerate(("[1,0,1,0] · [1,0,1,0] = 1+0+1+0 = 2.0", "[1,0,1,0] · [0,1,0,1] = 0+0+0+0 = 0.0",
                          "[1,0,1,0] · [0.5,0.5,0.5,0.5] = 0.5+0+0.5+0 = 1.0")):
    T.row(list(Q[0] * K[j]) + [S[0, j]], f"q_0*k_{j} terms and S[1,{j + 1}]", T.find(line))
for r in range(3):
    T.row(S[r], f"S[{r + 1},:]", T.find(f"Query{r} [{S[r, 0]:.1f},"))
T.num("2", 2.0, "sqrt(d_k)", T.find("# Divide by √4 = 2"))
for r in range(3):
    T.row(Ssc[r], f"S[{r + 1},:]/2", T.find(f"Query{r} [{Ssc[r, 0]:.1f},  {Ssc[r, 1]:.1f}"))
for r, lead in enumerate(("Query0 [0.506", "Query1 [0.186", "Query2 [0.333")):
    at = T.find(lead)
    T.nums(T._line(at).split("[")[1].split("]")[0].replace(",", " ").split(), A[r], f"A[{r + 1},:]", at)
T.num("2.0", S[0, 0], "S[1,1] (prose)", T.find("(score 2.0 before scaling)"))
T.num("50.6", 100 * A[0, 0], "A[1,1] in percent", T.find("50.6% attention to position 0"))
T.num("1.0", S[2, 0], "S[3,:] (prose)", T.find("(scores all 1.0)"))
T.num("33.3", 100 * A[2, 0], "A[3,:] in percent", T.find("(33.3% each)"))
at = T.find("[-3√64, 3√64] = [-24, 24]")
T.nums(["-24", "24"], [-3 * 8, 3 * 8], "3 sigma for d = 64", at)
at = T.find("Scaled scores: (-24/8, 24/8) = [-3, 3]")
T.nums(["-24", "8", "24", "8", "-3", "3"], [-24, 8, 24, 8, -3, 3], "3 sigma / sqrt(64)", at)
G = np.array([[0.5, 0.2, 0.3], [0.1, 0.7, 0.2], [0.4, 0.3, 0.3]])       # the illustrative "example output"
for r, lead in enumerate(("Pos0 [[0.500", "Pos1  [0.100", "Pos2  [0.400")):
    T.nums([f"{g:.3f}" for g in G[r]], G[r], f"illustrative weights[{r + 1},:]", T.find(lead), role="input")
T.num("0.7", G[1, 1], "illustrative Matrix[1,1]", T.find("Matrix[1,1] = 0.7"))
T.num("70", 100 * G[1, 1], "illustrative Matrix[1,1] in percent", T.find("gives 70% of its attention"))
T.mark_own_errors({205: "A[1,3] printed 0.308; softmax(1, 0, 0.5) gives 0.30719, i.e. 0.307 (the row was forced "
                        "to sum to 1)",
                   206: "A[2,3] printed 0.308 for 0.30719 (0.307), as in row 1"})
T.slip("Query1 [0.0,  2.0,  1.0]", "Query1 [0.0,  2.0,  0.1]", "a score shifted one place")
T.slip("Query2 [0.333, 0.333, 0.333]", "Query2 [0.333, 0.333, 0.383]", "one digit off in a weight")
T.slip("50.6% attention", "56.0% attention", "swapped digits in a percentage")
T.write()
