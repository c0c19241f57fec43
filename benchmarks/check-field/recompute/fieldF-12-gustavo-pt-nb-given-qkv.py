"""fieldF-12: gustavodovale/LAB-P1-01-, attetion.ipynb (student lab notebook, comments in Portuguese).  Starts from
Q/K/V: Q = [[1,2,2],[1,1,2]], K = [[2,5,6],[0,8,1]], V = [[10,50],[20,60]] given in a cell (int8); the function
prints the raw scores QK^T and returns softmax(QK^T / sqrt(3)) V, shown as the cell's result.  All printed numbers
are right.  (The int8 dtype does not matter here: the largest raw score is 24, inside int8's range; the "8" of
"np.int8" on the input lines is not read as a given.)"""
import numpy as np
from _truth import Truth

Q = np.array([[1, 2, 2], [1, 1, 2]], dtype=float)
K = np.array([[2, 5, 6], [0, 8, 1]], dtype=float)
V = np.array([[10, 50], [20, 60]], dtype=float)
S = Q @ K.T
Ssc = S / np.sqrt(3)
E = np.exp(Ssc - Ssc.max(1, keepdims=True))
A = E / E.sum(1, keepdims=True)
O = A @ V
print(S, A, O, sep="\n")

T = Truth("fieldF-12-gustavo-pt-nb-given-qkv")
for name, M in (("Q = np.array", Q), ("K = np.array", K), ("V = np.array", V)):
    at = T.find(name, cell=3)
    T.row(M.ravel(), f"{name.split()[0]} (given)", at, last=False, role="input")
T.row(S[0], "S = QK^T[1,:]", T.find("[[24 18]", cell=3, output=True))
T.row(S[1], "S = QK^T[2,:]", T.find(" [19 10]]", cell=3, output=True))
T.row(O[0], "O = softmax(S / sqrt(3)) V[1,:]", T.find("array([[10.3035109", cell=3, output=True))
T.row(O[1], "O = softmax(S / sqrt(3)) V[2,:]", T.find("[10.05507332, 50.05507332]", cell=3, output=True))
T.mark_own_errors()
T.slip('"[[24 18]\\n"', '"[[24 81]\\n"', "swapped digits in a raw score")
T.slip("array([[10.3035109 , 50.3035109 ]", "array([[10.3053109 , 50.3035109 ]", "swapped digits in an output")
T.slip("[10.05507332, 50.05507332]", "[10.05507332, 50.50507332]", "swapped digits in an output")
T.write()
