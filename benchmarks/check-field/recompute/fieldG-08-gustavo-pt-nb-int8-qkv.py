"""fieldG-08: gustavodovale/LAB-P1-01-, attetion.ipynb (a Portuguese lab notebook).  Starts from Q, K, V given as
small int8 arrays (2 queries, 2 keys, d_k = 3); the function prints the raw scores Q K^T and returns the output of
softmax(Q K^T / sqrt(3)) V.  Both printouts are right (the int8 products stay below 127, so no wrap-around)."""
import numpy as np
from _truth import Truth

Q = np.array([[1, 2, 2], [1, 1, 2]], float)
K = np.array([[2, 5, 6], [0, 8, 1]], float)
V = np.array([[10, 50], [20, 60]], float)
S = Q @ K.T
A = np.exp(S / np.sqrt(3) - (S / np.sqrt(3)).max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
O = A @ V
print(S, A, O, sep="\n")

T = Truth("fieldG-08-gustavo-pt-nb-int8-qkv")
for r, (name, M) in enumerate((("Q", Q), ("K", K), ("V", V))):
    T.row(M.ravel(), f"{name} given (int8)", (3, r + 1, False), role="input")
for r in range(2):
    T.row(S[r], f"scores Q K^T[{r + 1},:]", (3, r + 1, True))
    T.row(O[r], f"output softmax(QK^T/sqrt 3) V[{r + 1},:]", (3, r + 3, True))
T.mark_own_errors()
T.slip('"[[24 18]\\n"', '"[[24 81]\\n"', "swapped digits in a score")
T.slip("[10.05507332, 50.05507332]", "[10.05507332, 50.50507332]", "a digit doubled in an output")
T.slip('"array([[10.3035109 , 50.3035109 ],\\n"', '"array([[10.3035109 , 50.3053109 ],\\n"',
       "swapped digits in an output")
T.write()
