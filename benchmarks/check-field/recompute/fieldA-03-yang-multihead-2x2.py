"""fieldA-03 (held out): X = I (2 tokens, d = 2), two heads: head 1 with identity weights, head 2 with the swap
matrix for W_Q = W_K = W_V; unscaled dot products (no sqrt(d_k) here), softmax, outputs; W_O = 1/2 [[1,0,1,0],
[0,1,0,1]] averages the two heads (its 2x4 form is applied as W_O y, the concatenation being 4 wide).  The
concatenation and the product with W_O are images; the final [0.5, 0.5] is in prose."""
import numpy as np
from _truth import Truth

X = np.eye(2)
W1 = np.eye(2); W2 = np.array([[0, 1], [1, 0.]])
def head(W):
    Q, K, V = X @ W, X @ W, X @ W
    S = Q @ K.T
    A = np.exp(S) / np.exp(S).sum(1, keepdims=True)
    return Q, S, A, A @ V
Q1, S1, A1, O1 = head(W1); Q2, S2, A2, O2 = head(W2)
Oc = np.hstack([O1, O2])
WO = 0.5 * np.array([[1, 0, 1, 0], [0, 1, 0, 1.]])
Y = Oc @ WO.T
print("A1", A1, "O1", O1, "A2", A2, "O2", O2, "Y", Y, sep="\n")

T = Truth("fieldA-03-yang-multihead-2x2")
T.row([S1[0, 0]], "S1[1,1]", T.find(r"  * \[1, 0] · \[1, 0] = 1"))
T.row([S1[0, 1]], "S1[1,2]", T.find(r"  * \[1, 0] · \[0, 1] = 0"))
T.nums(["0.73", "0.27"], A1[0], "A1[1,:]", T.find(r"\text{softmax}( [1, 0] ) ≈ [0.73, 0.27]"))
at = T.find(r"\text{Attention output}_\text{head1} = 0.73")
T.nums(["0.73", "0.27"], A1[0], "A1[1,:]", at)
T.nums(["0.73", "0.27"], O1[0], "O1[1,:]", at, )
at = T.find(r"* Dot products: \[0, 1] · \[1, 0] = 0")
T.nums(["0", "1"], S1[1], "S1[2,:]", at) if False else None
T.row([S1[1, 1]], "S1[2,2]", at)
T.nums(["0.27", "0.73"], A1[1], "A1[2,:]", T.find(r"* softmax(\[0, 1]) → \[0.27, 0.73]"))
T.nums(["0.27", "0.73"], O1[1], "O1[2,:]", T.find(r"* Output: \[0.27, 0.73]"))
c, ln, _ = T.find(r"\text{Head1 Output} = \begin{bmatrix} 0.73 & 0.27")
T.nums(["0.73", "0.27"], O1[0], "O1[1,:]", (c, ln, False)); T.nums(["0.27", "0.73"], O1[1], "O1[2,:]", (c, ln + 1, False))
T.row(Q2[0], "Q2[1,:]", T.find(r'  * "I" → \[1, 0] @'))
T.row(Q2[1], "Q2[2,:]", T.find(r'  * "love" → \[0, 1] @'))
T.row([S2[0, 0]], "S2[1,1]", T.find(r"  * \[0, 1] · \[0, 1] = 1"))
T.row([S2[0, 1]], "S2[1,2]", T.find(r"  * \[0, 1] · \[1, 0] = 0"))
T.nums(["0.73", "0.27"], A2[0], "A2[1,:]", T.find(r"* softmax(\[1, 0]) = \[0.73, 0.27]"))
at = T.find(r"  0.73 \* \[0, 1] + 0.27 \* \[1, 0] = \[0.27, 0.73]")
T.nums(["0.73", "0.27"], A2[0], "A2[1,:]", at); T.nums(["0.27", "0.73"], O2[0], "O2[1,:]", at)
c, ln, _ = T.find(r"\text{Head2 Output} = \begin{bmatrix} 0.27 & 0.73")
T.nums(["0.27", "0.73"], O2[0], "O2[1,:]", (c, ln, False)); T.nums(["0.73", "0.27"], O2[1], "O2[2,:]", (c, ln + 1, False))
T.nums(["0.5", "0.5"], Y[0], "Y[1,:] (and every token's)", T.find(r"**final embedding of \[0.5, 0.5]**"))
T.mark_own_errors()

T.slip(r"\text{softmax}( [1, 0] ) ≈ [0.73, 0.27]", r"\text{softmax}( [1, 0] ) ≈ [0.72, 0.27]", "one digit off in a weight")
T.slip(r"* Output: \[0.27, 0.73]", r"* Output: \[0.73, 0.27]", "swapped entries (the other token's output)")
T.slip("0.73 & 0.27 \\end{bmatrix}\n$$\n\n---\n\n### 🔗", "0.37 & 0.27 \\end{bmatrix}\n$$\n\n---\n\n### 🔗", "swapped digits in O2[2,1]")
T.write()
