"""fieldA-17 (held out): X 3x3 with W_q, W_k, W_v 3x3 (Q = X W), softmax(Q K^T / sqrt(3)) V; every matrix is LaTeX
in a percent-encoded codecogs image URL.  The author's Q, K and V are already wrong (e.g. Q[1,3] 0.99 for 1.05,
Q[2,1] 1.25 for 1.07), and scores, weights and outputs follow from none of the reasonable readings: every line
with a derived number holds an own error, so no slip can be planted."""
import numpy as np
from _truth import Truth

X = np.array([[1.8, 0.1, 0.5], [0.3, 1.2, 0.8], [1.8, -0.3, 0.8]])
Wq = np.array([[.1, .2, .3], [.4, .5, .6], [.7, .8, .9]])
Wk = np.array([[.2, .3, .4], [.5, .6, .7], [.8, .9, .1]])
Wv = np.array([[.3, .4, .5], [.6, .7, .8], [.9, .1, .2]])
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
A = np.exp(S / np.sqrt(3)); A /= A.sum(1, keepdims=True)
O = A @ V
for n, M in zip("Q K V S A O".split(), (Q, K, V, S, A, O)):
    print(n, M.round(4).tolist())

T = Truth("fieldA-17-prakash-trainable-weights")
printed = {
    "Q Calculation": (Q, "0.57 0.81 0.99 1.25 1.35 1.53 0.62 0.45 0.63"),
    "K Calculation": (K, "0.81 1.08 1.24 1.30 1.53 1.79 0.85 0.87 0.59"),
    "V Calculation": (V, "1.05 0.84 1.09 1.47 1.04 1.15 1.08 0.68 0.67"),
    "Attention Scores with Weights": (S, "2.37 3.23 1.83 3.23 4.38 2.49 1.83 2.49 1.48"),
    "Attention Weights with Weights": (A, "0.17 0.65 0.18 0.21 0.70 0.09 0.25 0.54 0.21"),
    "Context Vectors with Weights": (O, "1.34 0.92 1.08 1.37 0.95 1.09 1.36 0.91 1.07"),
}
for needle, (M, ps) in printed.items():
    at = T.find(needle)
    for k, p in enumerate(ps.split()):
        T.num(p, M.flat[k], f"{needle.split()[0]}[{k // 3 + 1},{k % 3 + 1}]", at)
T.mark_own_errors()
T.write()
