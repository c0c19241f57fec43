"""fieldG-03: lvncers-knowledge-base/llm, self-attention.md (Japanese notes, a copy of a zenn.dev article).  Starts
from vectors: three keys (height, weight, age of pupils) and values (two test scores), four hand-picked queries
Q0..Q3 (Q3 = 0.5 Q2); prints the table of products Q K^T and the "Attention Matrix" as percentages.  The
percentages are a softmax of the UNSCALED products (the text's first formula; the full formula with sqrt(d_k) comes
later as an image): with /sqrt(3) row Q0 would read 14%/86%, not 4.3%/95.7%.  The Q3 row (1.5%, 29.5%, 69%) is
marked as the author's own error: the exact values are 1.56%, 29.37%, 69.07%, and the text says the entries are
rounded approximations (they were evened so the row sums to 100)."""
import numpy as np
from _truth import Truth

K = np.array([[131.5, 29.6, 8.9], [151.2, 42.3, 12.8], [154.3, 47.5, 14.2]])
V = np.array([[12, 31], [45, 51], [52, 78]], float)
Q2 = np.array([0.1, 0, 1])
Q = np.array([[1, 0, 0], [0, -1, 0], Q2, 0.5 * Q2])
S = Q @ K.T
A = np.exp(S - S.max(1, keepdims=True))
A = 100 * A / A.sum(1, keepdims=True)
print(S, A, sep="\n")

T = Truth("fieldG-03-lvncers-ja-md-student-keys")
L = lambda n: (None, n, False)
for r in range(3):
    T.nums([f"{x:g}" for x in K[r]], K[r], f"K{r}", L(64 + r), role="input")
    T.row(V[r], f"V{r}", L(64 + r), role="input")
T.row([1, 0, 0], "Q0", L(113), role="input")
T.nums(["0", "−1", "0"], [0, -1, 0], "Q1", L(114), role="input")
T.nums(["1", "0", "1", "0.1", "0", "1"], [1, 0, 1, 0.1, 0, 1], "Q2' and Q2", L(115), role="input")
T.nums(["0.05", "0", "0.5"], 0.5 * Q2, "Q3 = 0.5 Q2", L(116))
T.num("0.5", 0.5, "factor", L(116), role="input")
for ln in (125, 134):
    for r in range(3):
        T.nums([f"{x:g}" for x in K[r]], K[r], f"K{r} in the header", L(ln), role="input")
qtxt = (["1", "0", "0"], ["0", "−1", "0"], ["0.1", "0", "1"], ["0.05", "0", "0.5"])
for i in range(4):
    for ln in (127 + i, 136 + i):
        T.nums(qtxt[i], Q[i], f"Q{i} in the row head", L(ln), role="input" if i < 3 else "derived")
stxt = (["131.5", "151.2", "154.3"], ["−29.6", "−42.3", "−47.5"], ["22.05", "27.92", "29.63"],
        ["11.025", "13.96", "14.815"])
ptxt = (["0", "4.3", "95.7"], ["100", "0", "0"], ["0", "15", "85"], ["1.5", "29.5", "69"])
for i in range(4):
    T.nums(stxt[i], S[i], f"(QK^T)[Q{i},:]", L(127 + i))
    for j, p in enumerate(ptxt[i]):
        T.num(p, A[i, j], f"attention %[Q{i},K{j}]", L(136 + i))
T.mark_own_errors({139: "the Q3 row is shown as 1.5% / 29.5% / 69%; a softmax of the printed products gives 1.56% / "
                         "29.37% / 69.07% (evened to sum to 100; the text calls the entries rounded approximations)"})
T.slip("| 27.92 |", "| 29.72 |", "swapped digits in a product")
T.slip("| 4.3% | 95.7% |", "| 4.3% | 97.5% |", "swapped digits in a percentage")
T.slip("| 22.05 |", "| 22.50 |", "swapped digits in a product")
T.write()
