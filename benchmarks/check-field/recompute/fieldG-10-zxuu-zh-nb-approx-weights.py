"""fieldG-10: zxuu/Self-Attention, OneHead/self-attention.ipynb (a notebook with Chinese comments and notes).  Starts
from X with weights: the widely copied 3x4 input with 4x3 w_key / w_query / w_value (integer, not the project's
seed); keys, queries and values printed (as output and again in comments), unscaled scores Q K^T and their softmax in
comments (5 significant digits), then the author REPLACES the softmax by rounded weights [[0,.5,.5],[0,1,0],
[0,.9,.1]] "for readability": those are recorded as the author's givens, and everything after (weighted values,
outputs, cosine similarities) is recomputed from them.  The markdown note says the cosine similarity is 0.993 while
the cell below prints 0.9993 (exact 0.99929): an own error of the note."""
import re
import numpy as np
from _truth import Truth

X = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], float)
Wk = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], float)
Wq = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], float)
Wv = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], float)
K, Q, V = X @ Wk, X @ Wq, X @ Wv
S = Q @ K.T
A = np.exp(S - S.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
Aap = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]])       # the author's rounded weights
W = V[:, None] * Aap.T[:, :, None]                                          # weighted_values[j, i, :] = A[i, j] V[j]
O = W.sum(0)
cos = lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b)
print(K, Q, V, S, A, O, cos(O[2], V[1]), cos(O[0], V[2]), cos(O[2], V[2]), sep="\n")

T = Truth("fieldG-10-zxuu-zh-nb-approx-weights")
ROW = re.compile(r"\[\s*-?\d")


def src_rows(cell: int) -> list:
    return sorted((k for k in T.lines if len(k) == 3 and k[0] == cell and not k[2] and ROW.search(T.lines[k])
                   and not T.lines[k].lstrip().startswith("#")), key=lambda k: k[1])


rows = src_rows(2)
assert len(rows) == 3, rows
for r, at in enumerate(rows):
    T.row(X[r], f"x[{r + 1},:]", at, role="input", last=False)
rows = src_rows(3)
assert len(rows) == 12, rows
for r, at in enumerate(rows):
    T.row((Wk, Wq, Wv)[r // 4][r % 4], "w_key / w_query / w_value row", at, role="input", last=False)
for base, M, what in (((4, 6, False), K, "keys = x w_key (comment)"), ((4, 10, False), Q, "querys (comment)"),
                      ((4, 14, False), V, "values (comment)"), ((4, 1, True), K, "keys"), ((4, 4, True), Q, "querys"),
                      ((4, 7, True), V, "values"), ((13, 2, False), V, "values (comment)"),
                      ((13, 1, True), V, "values")):
    for r in range(3):
        T.row(M[r], f"{what}[{r + 1},:]", (base[0], base[1] + r, base[2]))
for r in range(3):
    T.row(S[r], f"scores Q K^T (comment)[{r + 1},:]", (5, 3 + r, False), last=False)
    T.row(A[r], f"softmax (comment)[{r + 1},:]", (6, 3 + r, False))
    T.row(Aap[r], f"rounded weights[{r + 1},:]", (6, 8 + r, False), role="input")
    T.row(Aap[r], f"rounded weights again (comment)[{r + 1},:]", (13, 6 + r, False), role="input")
    T.row(Aap[r], f"rounded weights printed[{r + 1},:]", (13, 4 + r, True), role="input")
    T.row(O[r], f"outputs (comment)[{r + 1},:]", (8, 3 + r, False), last=False)
    T.row(O[r], f"outputs again (comment)[{r + 1},:]", (13, 10 + r, False), last=False)
    T.row(O[r], f"outputs printed[{r + 1},:]", (13, 7 + r, True))
for j, start in enumerate((4, 8, 12)):
    for i in range(3):
        T.row(W[j, i], f"weighted_values[{j + 1},{i + 1}] (comment)", (7, start + i, False))
for j, start in enumerate((1, 5, 9)):
    for i in range(3):
        T.row(W[j, i], f"weighted_values[{j + 1},{i + 1}]", (11, start + i, True))
        T.row([Aap[i, j]], f"A^T[{j + 1},{i + 1}] printed", (10, start + i, True), role="input")
for r, ln in enumerate((1, 3, 5)):
    T.row(V[r], f"values[:, None][{r + 1}]", (9, ln, True))
T.num("0.9", Aap[2, 1], "rounded weight quoted in the note", (14, 1, False), role="input")
T.num("0.993", cos(O[2], V[1]), "cosine(outputs[2], values[1]) quoted in the note", (14, 2, False))
for cell, c in ((15, cos(O[2], V[1])), (16, cos(O[0], V[2])), (17, cos(O[2], V[2]))):
    T.num(f"{c:.4f}", c, "cosine similarity", (cell, 1, True))
T.mark_own_errors({(14, 2): "the note gives the cosine similarity as 0.993; the cell below prints 0.9993 "
                            "(exact 0.99929)"})
T.slip("#         [ 4., 16., 12.],", "#         [ 4., 61., 12.],", "swapped digits in a score (comment)")
T.slip("[6.0337e-06, 9.8201e-01, 1.7986e-02]", "[6.0337e-06, 9.8201e-01, 1.7896e-02]",
       "swapped digits in a softmax weight (comment)")
T.slip("[1.8000, 7.2000, 0.0000]],\\n\\n        [[1.0000, 3.0000, 1.5000]",
       "[1.8000, 2.7000, 0.0000]],\\n\\n        [[1.0000, 3.0000, 1.5000]", "swapped digits in a weighted value")
T.slip('"tensor(0.9706)"', '"tensor(0.9760)"', "swapped digits in a cosine similarity")
T.write()
