"""fieldK-06: Idk507/attention, self_attention.ipynb (English notebook, code and printouts).
Q, K, V (4 x 8) drawn by np.random.randn without a seed but PRINTED in full (8 decimals; K is labelled "W" in the
printout); then Q K^T, the variances of q, k, Q K^T and of the scaled scores (d_k = 8), the causal mask, the scaled
masked scores, the causal softmax, the weights times V, and the same two results printed again by a function.
Everything is recomputed from the printed Q, K, V: a number counts as right when it lies within 1e-6 of that value
(the givens are rounded to 8 decimals).  Not in the truth: the 0/1 and 0/-inf mask printouts (no arithmetic).
No own errors."""
import numpy as np
from _truth import Truth
from _printout import judge, tokens

T = Truth("fieldK-06-idk507-en-nb-printed-qkv-causal")
q = np.array([float(t) for _, t in tokens(T, 3, 2, 32)]).reshape(4, 8)
k = np.array([float(t) for _, t in tokens(T, 3, 11, 32)]).reshape(4, 8)
v = np.array([float(t) for _, t in tokens(T, 3, 20, 32)]).reshape(4, 8)
s = q @ k.T
sc = s / np.sqrt(8)
m = np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)
e = np.exp(sc + m)
a = e / e.sum(axis=1, keepdims=True)
o = a @ v
print(s, a, o)

judge(T, 3, 2, q, "Q printed", 0, role="input")
judge(T, 3, 11, k, "K printed (as W)", 0, role="input")
judge(T, 3, 20, v, "V printed", 0, role="input")
judge(T, 4, 1, s, "Q K^T", 1e-6)
judge(T, 5, 1, [q.var(), k.var(), s.var()], "variances of q, k, Q K^T", 1e-6)
judge(T, 6, 1, [q.var(), k.var(), sc.var()], "variances of q, k, scaled scores", 1e-6)
judge(T, 10, 1, sc + m, "scaled + causal mask (finite entries)", 1e-6)
judge(T, 12, 1, a, "causal softmax", 1e-6)
judge(T, 13, 1, o, "weights times V", 1e-6)
judge(T, 15, 3, o, "values (function)", 1e-6)
judge(T, 15, 11, a, "attention (function)", 1e-6)
T.mark_own_errors()
T.slip("[0.85466496, 0.14533504, 0.        , 0.        ],", "[0.58466496, 0.14533504, 0.        , 0.        ],",
       "swapped digits in a weight")
T.slip("[ 5.19680278,  0.18576933,  0.85165031, -0.5507876 ],", "[ 5.91680278,  0.18576933,  0.85165031, -0.5507876 ],",
       "swapped digits in a score")
T.slip(" [-0.19665329 -0.16354946 -0.75803482", " [-0.19665329 -0.16354946 -0.57803482", "swapped digits in an output")
T.write()
