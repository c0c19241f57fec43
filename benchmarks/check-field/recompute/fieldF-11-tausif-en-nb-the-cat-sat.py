"""fieldF-11: MuhammadTausif/PyComplete, attention/self-attention/self-attention.ipynb (English notebook).  Starts from
X with weights: X (3x4, "The", "cat", "sat") is given and W_q, W_k, W_v (4x4) are np.random.rand(4, 4) under
np.random.seed(0), printed to 8 digits (the seeded draw is reproduced here exactly, and agrees with the printout).
Q, K, V, the scores over sqrt(4), the weights and the output are printed; all agree with a float64 recomputation."""
import numpy as np
from _truth import Truth

X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
np.random.seed(0)
Wq, Wk, Wv = np.random.rand(4, 4), np.random.rand(4, 4), np.random.rand(4, 4)
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T / np.sqrt(4)
E = np.exp(S - S.max(1, keepdims=True))
A = E / E.sum(1, keepdims=True)
O = A @ V
print(S, A, O, sep="\n")

T = Truth("fieldF-11-tausif-en-nb-the-cat-sat")


def out_rows(cell: int) -> list:
    """The output lines of a cell that hold numbers inside brackets, in order."""
    keys = [k for k in T.lines if len(k) == 3 and k[0] == cell and k[2] and "[" in T.lines[k]]
    return sorted(keys, key=lambda k: k[1])


for r, w in enumerate(('"The"', '"cat"', '"sat"')):
    T.row(X[r], f"x_{w}", T.find(f"# {w}", cell=2), role="input")
rows = out_rows(2)
assert len(rows) == 3, rows
for r, at in enumerate(rows):
    T.row(X[r], f"X[{r + 1},:] printed", at, role="input")
rows = out_rows(4)
assert len(rows) == 21, rows
for i, (name, M, role) in enumerate((("W_q", Wq, "input"), ("W_k", Wk, "input"), ("W_v", Wv, "input"))):
    for r in range(4):
        T.row(M[r], f"{name}[{r + 1},:] (seed 0, printed)", rows[4 * i + r], role=role)
for i, (name, M) in enumerate((("Q = X W_q", Q), ("K = X W_k", K), ("V = X W_v", V))):
    for r in range(3):
        T.row(M[r], f"{name}[{r + 1},:]", rows[12 + 3 * i + r])
for cell, M, what in ((6, S, "Q K^T / sqrt(4)"), (8, A, "A = softmax"), (10, O, "O = A V")):
    rows = out_rows(cell)
    assert len(rows) == 3, (cell, rows)
    for r, at in enumerate(rows):
        T.row(M[r], f"{what}[{r + 1},:]", at)
T.mark_own_errors()
T.slip("[1.98339872 3.1429815  1.01724654 1.9578046 ]", "[1.98339872 3.1429815  1.01742654 1.9578046 ]",
       "swapped digits in Q")
T.slip("[ 4.69652452 10.57351751  9.98328327]", "[ 4.69652452 10.57351751  9.98382327]", "swapped digits in a score")
T.slip("[0.00088234 0.71178464 0.28733302]", "[0.00088234 0.71178464 0.28373302]", "swapped digits in a weight")
T.slip("[2.37124698 2.45396559 2.13285971 1.56135821]", "[2.37124698 2.45396559 2.13258971 1.56135821]",
       "swapped digits in an output")
T.write()
