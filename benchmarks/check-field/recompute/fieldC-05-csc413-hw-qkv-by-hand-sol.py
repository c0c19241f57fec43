"""fieldC-05: the solution of "Scaled Dot-Product Attention by Hand" (csc477/website_fall24, ex/w09/questions/
attn-transformers_by_hand-sol.md; CSC413 week 9): Q (2x2), K (3x2), V (3x3) are given in the question file, which
this solution does not repeat; here they appear only as torch tensors in the code that follows the answer.  The
answer C = softmax(Q K^T / sqrt(2)) V is printed first, rounded to two decimals, in the course's \\bpmat macro.
All six entries hold."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-05-csc413-hw-qkv-by-hand-sol"
Q = np.array([[1, 2], [3, 1]], float)
K = np.array([[2, 1], [1, 1], [0, 1]], float)
V = np.array([[1, 2, -2], [1, 1, 2], [0, 1, -1]], float)
A = softmax(Q @ K.T / np.sqrt(2))
C = A @ V
print("A", A, "C", C)

T = Truth(ID)
T.row(C[0], "C row 1", (None, 5, False))
T.row(C[1], "C row 2", (None, 6, False))
T.row(Q.ravel(), "Q (code)", T.find("Q = torch.tensor("), role="input")
T.row(K.ravel(), "K (code)", T.find("K = torch.tensor("), role="input")
T.row(V.ravel(), "V (code)", T.find("V = torch.tensor("), role="input")
T.mark_own_errors()
T.slip("0.86 & 1.58", "0.86 & 1.85", "swapped digits in C[1,2]")
T.slip("1.88 & -1.56", "1.88 & 1.56", "dropped sign in C[2,3]")
T.slip("0.99 & 1.88", "0.89 & 1.88", "one digit off in C[2,1]")
T.write()

source(ID, source={"repo": "csc477/website_fall24", "path": "ex/w09/questions/attn-transformers_by_hand-sol.md",
                   "commit": "9f7c9539871ef4f38b71469207eab13dc5967277"},
       format="md", lang="en", starts_from="QKV",
       what="homework solution (Q&A style): the 2x3 context matrix C of scaled dot-product attention in a \\bpmat "
            "macro, with Q, K, V given only afterwards, in the torch code that computes it",
       config={"T": 2, "S": 3, "H": 1, "d_k": 2, "scale": "1/sqrt(d_k)", "mask": None, "W_O": None,
               "givens": "Q, K, V as torch tensors in code (after the answer)"})
