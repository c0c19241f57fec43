"""fieldF-03: Furi5/DL_study, self_attention.ipynb (Chinese notebook).  One query against six keys: Q = K = V is a
given 6x4 table ("The cat sat on the mat"), the query is the row of "cat"; the notebook prints the six raw scores,
sqrt(d_k) = 2, the scaled scores, the softmax weights and the output.  All right.  Scope: the attention cell; the
positional-encoding cell that follows (sines and cosines added to the same table) is not an attention computation."""
import numpy as np
from _truth import Truth

X = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2],
              [1.3, 1.4, 1.5, 1.6], [1.7, 1.8, 1.9, 2.0], [2.1, 2.2, 2.3, 2.4]])
q = X[1]
s = X @ q
sc = s / np.sqrt(4)
w = np.exp(sc) / np.exp(sc).sum()
o = w @ X
print(s, sc, w, o, sep="\n")

T = Truth("fieldF-03-furi5-zh-nb-one-query")
for r, name in enumerate(("The", "cat", "sat", "on", "the", "mat")):
    T.row(X[r], f"Q=K=V row {name}", T.find(f"# {name}", cell=4), last=False, role="input")
T.row(s, "scores q_cat . k_j", T.find("scores [", cell=4, output=True))
T.num("2.0", np.sqrt(4), "sqrt(d_k)", T.find("sqrt_dk 2.0", cell=4, output=True))
T.row(sc, "scores / sqrt(d_k)", T.find("scale_scores [", cell=4, output=True))
T.row(w, "weights", T.find("weights [", cell=4, output=True))
T.row(o, "output", T.find("output [", cell=4, output=True))
T.mark_own_errors()
T.slip("scale_scores [0.35 0.87 1.39 1.91 2.43 2.95]", "scale_scores [0.35 0.87 1.93 1.91 2.43 2.95]",
       "swapped digits in a scaled score")
T.slip("0.14993952 0.25220241", "0.14993952 0.25202241", "swapped digits in a weight")
T.slip("output [1.62438656 1.72438656", "output [1.62438656 1.74238656", "swapped digits in the output")
T.write()
