"""fieldK-10: pranzalkhadka/Attention-Was-All-I-Needed, self_attention.ipynb (English notebook, prose and printouts).
"My Name is Pranjal": query, key and value vectors (4 x 8) drawn by np.random.randn without a seed but PRINTED in
full (8 decimals); then Q K^T, the scaled scores (d_k = 8), the causal mask, the masked scores, the softmax without
and with the mask, and the unmasked weights times V.  Everything is recomputed from the printed Q, K, V: a number
counts as right when it lies within 1e-6 of that value.  Not in the truth: the 0/1 and 0/-inf mask printouts (no
arithmetic).  No own errors."""
import numpy as np
from _truth import Truth
from _printout import judge, tokens

T = Truth("fieldK-10-pranzal-en-nb-printed-qkv-mask")
q = np.array([float(t) for _, t in tokens(T, 7, 1, 32)]).reshape(4, 8)
k = np.array([float(t) for _, t in tokens(T, 8, 1, 32)]).reshape(4, 8)
v = np.array([float(t) for _, t in tokens(T, 9, 1, 32)]).reshape(4, 8)
s = q @ k.T
sc = s / np.sqrt(8)
m = np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)
a0 = np.exp(sc) / np.exp(sc).sum(axis=1, keepdims=True)
e = np.exp(sc + m)
a1 = e / e.sum(axis=1, keepdims=True)
o = a0 @ v
print(s, a0, a1, o)

judge(T, 7, 1, q, "query printed", 0, role="input")
judge(T, 8, 1, k, "key printed", 0, role="input")
judge(T, 9, 1, v, "value printed", 0, role="input")
judge(T, 13, 1, s, "Q K^T", 1e-6)
judge(T, 16, 1, sc, "scaled scores", 1e-6)
judge(T, 23, 1, sc + m, "scaled + causal mask (finite entries)", 1e-6)
judge(T, 28, 1, a0, "softmax without mask", 1e-6)
judge(T, 29, 1, a1, "softmax with causal mask", 1e-6)
judge(T, 32, 1, o, "unmasked weights times V", 1e-6)
T.mark_own_errors()
T.slip(" [0.39098666 0.60901334 0.         0.        ]", " [0.39098666 0.66901334 0.         0.        ]",
       "a wrong digit in a masked weight")
T.slip("[[0.76038748 0.10736816 0.07647138 0.05577297]", "[[0.76038748 0.17036816 0.07647138 0.05577297]",
       "swapped digits in a weight")
T.slip("[-1.43773379, -0.18426899,  4.1302978 ,  3.43899878]", "[-1.43773379, -0.18426899,  4.1302978 ,  3.34899878]",
       "swapped digits in a score")
T.slip("       [ 0.20856435,  0.21311888,", "       [ 0.20856435,  0.21131888,", "swapped digits in an output")
T.write()
