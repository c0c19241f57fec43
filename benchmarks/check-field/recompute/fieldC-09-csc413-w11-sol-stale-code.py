"""fieldC-09: the week-11 copy of the same course's "attention by hand" solution (csc477/website_fall24,
ex/w11/questions/attn-transformers_by_hand-sol.md).  The week-11 question changed the matrices (Q = [[1,3],[0,1]],
K = [[1,1],[1,2],[0,1]], V = [[1,0,-2],[2,1,2],[0,3,-1]], in the question file, not here) and the answer C was
recomputed for them, but the code below the answer still builds week 9's Q, K, V.  Read as a document, its only
givens are those stale tensors, and against them every entry of C is wrong: softmax(Q K^T / sqrt(2)) V for the code's
matrices is [[0.86, 1.58, -0.72], [0.99, 1.88, -1.56]] (fieldC-05).  Both rows of C are the author's own errors
(answer and code out of step); the printed C does match the week-11 question (recomputed below as a second path),
which the document never shows.  No slip can be planted: every derived line holds an own error."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-09-csc413-w11-sol-stale-code"
Q = np.array([[1, 2], [3, 1]], float)           # what the code builds (week 9)
K = np.array([[2, 1], [1, 1], [0, 1]], float)
V = np.array([[1, 2, -2], [1, 1, 2], [0, 1, -1]], float)
C = softmax(Q @ K.T / np.sqrt(2)) @ V
Q11 = np.array([[1, 3], [0, 1]], float)          # the week-11 question (another file)
K11 = np.array([[1, 1], [1, 2], [0, 1]], float)
V11 = np.array([[1, 0, -2], [2, 1, 2], [0, 3, -1]], float)
C11 = softmax(Q11 @ K11.T / np.sqrt(2)) @ V11
print("C from the code's matrices", C.round(4), "C of the week-11 question", C11.round(4), sep="\n")

T = Truth(ID)
T.row(C[0], "C row 1", (None, 5, False))
T.row(C[1], "C row 2", (None, 6, False))
T.row(Q.ravel(), "Q (code)", T.find("Q = torch.tensor("), role="input")
T.row(K.ravel(), "K (code)", T.find("K = torch.tensor("), role="input")
T.row(V.ravel(), "V (code)", T.find("V = torch.tensor("), role="input")
why = ("C is the answer to the week-11 matrices (row {r}: {w}), but the code under it builds week 9's Q, K, V, "
       "for which the row is {c}")
T.mark_own_errors({5: why.format(r=1, w=C11[0].round(2).tolist(), c=C[0].round(2).tolist()),
                   6: why.format(r=2, w=C11[1].round(2).tolist(), c=C[1].round(2).tolist())})
T.write()

source(ID, source={"repo": "csc477/website_fall24", "path": "ex/w11/questions/attn-transformers_by_hand-sol.md",
                   "commit": "9f7c9539871ef4f38b71469207eab13dc5967277"},
       format="md", lang="en", starts_from="QKV",
       what="homework solution whose answer C (for the week-11 matrices, given elsewhere) sits above code that still "
            "builds week 9's Q, K, V: against the document's own givens both rows of C are wrong",
       config={"T": 2, "S": 3, "H": 1, "d_k": 2, "scale": "1/sqrt(d_k)", "mask": None, "W_O": None,
               "givens": "Q, K, V as torch tensors in code (stale: another exercise's)"})
