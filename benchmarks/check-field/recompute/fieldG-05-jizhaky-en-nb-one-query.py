"""fieldG-05: jizhaky/ai-learning-course, week05_attention/week5_attention.ipynb ("Attention by Numbers", English
course notebook).  One query [1.0, 0.5] against three 2-wide keys, raw scores, softmax weights, then three values
and the weighted output.  The scores are right, but the printed weights [0.5898 0.1316 0.2786] are not a softmax of
[1.7 0.2 0.8] (that is [0.6136 0.1369 0.2495]) and the printed output [0.7313 0.1687] follows neither from the
printed weights ([0.6964 0.1921]) nor from the right ones ([0.7044 0.1958]): the outputs were not produced by the
code shown.  Both output lines are the author's own errors.  No slip is planted: the only derived numbers are on
those two lines (the scores share the first line with the wrong weights)."""
import numpy as np
from _truth import Truth

q = np.array([1.0, 0.5])
K = np.array([[1.4, 0.6], [0.1, 0.2], [0.7, 0.2]])
V = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.1]])
s = K @ q
w = np.exp(s) / np.exp(s).sum()
o = w @ V
print(s, w, o, np.array([0.5898, 0.1316, 0.2786]) @ V)

T = Truth("fieldG-05-jizhaky-en-nb-one-query")
T.row(q, "query", T.find("query = np.array", cell=3), role="input")
for r in range(3):
    T.row(K[r], f"key {r + 1}", (3, 7 + r, False), role="input")
    T.row(V[r], f"value {r + 1}", (4, 2 + r, False), role="input")
at = T.find("Raw attention scores:", cell=3, output=True)
T.nums(["1.7", "0.2", "0.8"], s, "scores = keys @ query", at)
T.nums(["0.5898", "0.1316", "0.2786"], w, "softmax weights", at)
T.nums(["0.7313", "0.1687"], o, "output = weights @ values", T.find("Weighted output vector:", cell=4, output=True))
T.mark_own_errors({(3, 1): "printed weights [0.5898 0.1316 0.2786] are not softmax([1.7, 0.2, 0.8]) = "
                           "[0.6136 0.1369 0.2495]",
                   (4, 1): "printed output [0.7313 0.1687]; from the printed weights it is [0.6964 0.1921], from "
                           "the right weights [0.7044 0.1958]"})
for e in T.own_errors:                               # both wrong lines are in cell outputs
    e["output"] = True
T.write()
