"""fieldF-10: xuyuji9000/machine-learning-playground, 04-ml-algorithms/05-attention/main.ipynb (English learner's
notebook following a Medium article).  Starts from X with weights: three 4-wide word embeddings ("she", "likes",
"coffee") and given 4x4 W_q, W_k, W_v; one element of Q computed by hand (0.33000000000000007, twice), then the raw
scores QK^T, the scores over sqrt(4), exp of the scaled scores with their row sums, the weights and the output
A V.  All printed numbers agree with a float64 recomputation.  Shapes such as (3, 4) are not recorded."""
import numpy as np
from _truth import Truth

X = np.array([[0.2, 0.9, 0.1, 0.5], [0.8, 0.3, 0.7, 0.2], [0.4, 0.6, 0.3, 0.9]])
Wq = np.array([[0.9, 0.1, 0.1, 0.1], [0.1, 0.9, 0.1, 0.1], [0.1, 0.1, 0.9, 0.1], [0.1, 0.1, 0.1, 0.9]])
Wk = Wq.copy()
Wv = np.array([[0.8, 0.2, 0.1, 0.1], [0.2, 0.8, 0.2, 0.1], [0.1, 0.2, 0.8, 0.1], [0.1, 0.1, 0.1, 0.9]])
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
Ssc = S / np.sqrt(4)
E = np.exp(Ssc)
A = E / E.sum(1, keepdims=True)
O = A @ V
print(S, Ssc, E, A, O, sep="\n")

T = Truth("fieldF-10-xuyuji-en-nb-she-likes-coffee")


def out_rows(cell: int) -> list:
    """The output lines of a cell that hold numbers inside brackets, in order."""
    keys = [k for k in T.lines if len(k) == 3 and k[0] == cell and k[2] and "[" in T.lines[k]]
    return sorted(keys, key=lambda k: k[1])


for r, w in enumerate(("'she'", "'likes'", "'coffee'")):
    T.row(X[r], f"embedding {w}", T.find(w, cell=4), role="input")
rows = out_rows(6)
assert len(rows) == 3, rows
for r, at in enumerate(rows):
    T.row(X[r], f"X[{r + 1},:] printed", at, role="input")
for name, W in (("W_q = np.array", Wq), ("W_k = np.array", Wk), ("W_v = np.array", Wv)):
    at = T.find(name, cell=8)
    for r in range(4):
        T.row(W[r], f"{name.split()[0]}[{r + 1},:]", (at[0], at[1] + r, False) if len(at) == 3 else at, role="input")
for cell in (9, 11):
    T.num("0.33000000000000007", Q[0, 0], "Q[1,1] by hand", T.find("0.33000000000000007", cell=cell, output=True))
for cell, M, what in ((15, S, "S = QK^T"), (17, Ssc, "S / sqrt(4)"), (20, A, "A = softmax"), (22, O, "O = A V")):
    rows = out_rows(cell)
    assert len(rows) == 3, (cell, rows)
    for r, at in enumerate(rows):
        T.row(M[r], f"{what}[{r + 1},:]", at)
rows = out_rows(19)
assert len(rows) == 6, rows
for r, at in enumerate(rows[:3]):
    T.row(E[r], f"exp(S / sqrt(4))[{r + 1},:]", at)
for r, at in enumerate(rows[3:]):
    T.row([E[r].sum()], f"row sum of exp[{r + 1}]", at)
T.mark_own_errors()
T.slip("[0.532 , 0.8032, 0.7248]", "[0.532 , 0.8023, 0.7248]", "swapped digits in a scaled score")
T.slip("[0.28375415, 0.37215416, 0.34409169]", "[0.28375415, 0.37215416, 0.34490169]", "swapped digits in a weight")
T.slip("[0.58155011, 0.7007833 , 0.51155011, 0.64659215]", "[0.58155011, 0.7007833 , 0.51515011, 0.64659215]",
       "swapped digits in an output")
T.write()
