"""fieldG-04: rodrigocesar/LLMs-from-scratch, ch03/01_main-chapter-code/attention_walkthrough.ipynb (the fork
owner's own English walkthrough, not part of the book's code).  Starts from X with weights, all written in the code:
token and position embedding tables (X = token + position for "<bos> time flies fast <eos>"), 2x4 W_Q, W_K, W_V of
one head, then Q, K, V, the scaled scores (d_k = 2), softmax rows and context vectors; then two heads (head 0 as
before, head 1 with its own weights) concatenated and projected by a 4x4 W_O, whose output alone is printed.
Everything printed agrees with a float64 recomputation at 4 decimals."""
import re
import numpy as np
from _truth import Truth

tok = np.array([[0, 0, 0, 0], [.1, .2, .3, .4], [.2, .1, -.1, 0], [.5, .1, 0, -.2], [.3, -.1, .4, .1],
                [.05, .6, -.2, .1]])
pos = np.array([[0, 0, 0, 0], [.01, .02, .03, .04], [.02, .01, -.01, 0], [.03, 0, .01, -.02], [.04, -.01, .02, -.01],
                [.05, .02, 0, .01], [.06, .03, -.02, .02], [.07, .01, .01, .03]])
ids = [1, 3, 4, 5, 2]
T_, P_ = tok[ids], pos[:5]
X = T_ + P_
Wq = [np.array([[.5, 0, .5, 0], [0, .5, 0, -.5]]), np.array([[.2, .2, .4, 0], [.1, .3, -.1, .3]])]
Wk = [np.array([[.4, -.1, .3, 0], [-.2, .6, .1, .2]]), np.array([[.1, .3, .2, -.1], [.2, .1, -.2, .2]])]
Wv = [np.array([[.3, .1, -.2, .2], [.1, -.3, .4, 0]]), np.array([[.2, -.1, .1, .3], [-.1, .2, 0, .1]])]
Wo = np.array([[.5, 0, .3, 0], [0, .4, 0, .6], [.2, -.1, .5, 0], [.1, 0, 0, .3]])


def head(h):
    Q, K, V = X @ Wq[h].T, X @ Wk[h].T, X @ Wv[h].T
    S = Q @ K.T / np.sqrt(2)
    A = np.exp(S) / np.exp(S).sum(1, keepdims=True)
    return Q, K, V, S, A, A @ V


Q, K, V, S, A, Z = head(0)
Zcat = np.hstack([head(0)[5], head(1)[5]])
Y = Zcat @ Wo.T
print(Q, K, V, S, A, Z, Y, sep="\n")

T = Truth("fieldG-04-rodrigo-en-nb-two-heads-wo")
ROW = re.compile(r"\[\s*-?\d+\.\d")


def code_rows(cell: int) -> list:
    """The source lines of a cell that start a bracketed numeric row, in order."""
    return sorted((k for k in T.lines if len(k) == 3 and k[0] == cell and not k[2] and ROW.search(T.lines[k])),
                  key=lambda k: k[1])


def out_rows(cell: int, first: str, n: int) -> list:
    at = T.find(first, cell=cell, output=True)
    return [(cell, at[1] + 1 + r, True) for r in range(n)]


rows = code_rows(6)
assert len(rows) == 14, rows
for r, at in enumerate(rows):
    T.row((tok if r < 6 else pos)[r if r < 6 else r - 6], "token/position embedding table", at, role="input",
          last=False)
for r, at in enumerate(out_rows(6, "Token embeddings:", 5)):
    T.row(T_[r], f"token embeddings[{r + 1},:]", at, role="input")
for r, at in enumerate(out_rows(6, "Positional embeddings:", 5)):
    T.row(P_[r], f"position embeddings[{r + 1},:]", at, role="input")
for r, at in enumerate(out_rows(6, "Input embeddings X", 5)):
    T.row(X[r], f"X = token + position[{r + 1},:]", at)
rows = code_rows(8)
assert len(rows) == 6, rows
for r, at in enumerate(rows):
    T.row((Wq[0], Wk[0], Wv[0])[r // 2][r % 2], "W_Q/W_K/W_V row (head 0)", at, role="input", last=False)
rows = code_rows(12)
assert len(rows) == 16, rows
Ws = [Wq[0], Wk[0], Wv[0], Wq[1], Wk[1], Wv[1]]
for r, at in enumerate(rows[:12]):
    T.row(Ws[r // 2][r % 2], "per-head weight row", at, role="input")
for r, at in enumerate(rows[12:]):
    T.row(Wo[r], f"W_O[{r + 1},:]", at, role="input", last=False)
for name, M in (("Q:", Q), ("K:", K), ("V:", V)):
    for r, at in enumerate(out_rows(8, name, 5)):
        T.row(M[r], f"{name[0]} = X W^T (head 0)[{r + 1},:]", at)
for name, M, what in (("Attention scores (scaled):", S, "QK^T / sqrt(2)"), ("Attention weights", A, "softmax"),
                      ("Context vectors Z", Z, "Z = A V")):
    for r, at in enumerate(out_rows(10, name, 5)):
        T.row(M[r], f"{what}[{r + 1},:]", at)
for r, at in enumerate(out_rows(12, "Z (multi-head) projected", 5)):
    T.row(Y[r], f"concat(heads) W_O^T[{r + 1},:]", at)
T.mark_own_errors()
T.slip("[ 0.3550, -0.0950],", "[ 0.3550, -0.0590],", "swapped digits in Q")
T.slip("[0.1983, 0.2065, 0.2093, 0.1871, 0.1988],", "[0.1983, 0.2065, 0.2039, 0.1871, 0.1988],",
       "swapped digits in a weight")
T.slip("[0.0924, 0.0019],", "[0.0924, 0.0091],", "swapped digits in a context vector")
T.slip("[0.0656, 0.0130, 0.0507, 0.0153],", "[0.0656, 0.0130, 0.0570, 0.0153],",
       "swapped digits in the multi-head output")
T.write()
