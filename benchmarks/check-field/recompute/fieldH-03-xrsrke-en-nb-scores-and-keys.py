"""fieldH-03: xrsrke/ai-notebooks, ai_notebooks/transformer/01_attention.ipynb (English notebook, executed).
Example 1 starts from raw scores [13, 9, 9] and a printed 3x3 "encoder hidden states" matrix: softmax of the scores,
then the weights times the states (broadcast along the last axis, as the code writes it) and the row sums.  Examples
2 and 3 start from three 4-wide word vectors and printed integer W_k, W_q, W_v: keys, queries, values, an elementwise
product, the first query's scores and their softmax; a second pass in float repeats queries and keys and prints
queries @ keys (not keys transposed: the code's product, recomputed as written).  torch float32 printouts; every
printed number agrees with a float64 recomputation at its printed precision."""
import numpy as np
from _truth import Truth

H = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]])
s = np.array([13.0, 9.0, 9.0])
w = np.exp(s) / np.exp(s).sum()
out = w * H                                   # (3,) broadcast over the last axis of (3, 3)
x = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], float)
Wk = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], float)
Wq = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], float)
Wv = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], float)
K, Q, V = x @ Wk, x @ Wq, x @ Wv
sc = Q[0] @ K.T
a = np.exp(sc) / np.exp(sc).sum()
print(w, out, out.sum(-1), K, Q, V, Q[0] * K.T, sc, a, Q @ K, sep="\n")

T = Truth("fieldH-03-xrsrke-en-nb-scores-and-keys")
out_line = lambda cell, k=0: T.find("", cell=cell, output=True, nth=k)
for r in range(3):
    T.row(H[r], f"encoder_hidden_states[{r + 1},:] (code)", (5, 2 + r, False), role="input")
    T.row(H[r], f"encoder_hidden_states[{r + 1},:] (printout)", (6, 1 + r, True), role="input")
T.row(s, "scores (code)", T.find("scores = torch.tensor", cell=7), role="input")
for r in range(3):
    T.row(out[r], f"softmax(scores) * states[{r + 1},:]", (10, 1 + r, True))
T.row(out.sum(-1), "output.sum(dim=-1)", (11, 1, True))
# Example 2: the word vectors and the key weight columns
for c, r in ((13, 0), (14, 1), (15, 2)):
    T.row(x[r], f"v_{r + 1}", (c, 1, False), role="input")
for c, r in ((16, 0), (17, 1), (18, 2)):
    T.row(Wk[:, r], f"W_k{r + 1}", (c, 1, False), role="input")
for r in range(4):
    T.row(Wk[r], f"W_k[{r + 1},:] (printout)", (19, 1 + r, True), role="input")
T.row(np.concatenate(x), "v_1, v_2, v_3 (printout)", (21, 1, True), role="input")
T.row(np.concatenate(Wk.T), "W_k1, W_k2, W_k3 (printout)", (23, 1, True), role="input")
for r in range(3):
    T.row(K[r], f"keys[{r + 1},:] (compute_keys)", (27, 1 + r, True))
T.row(K[0], "keys[0]", (29, 1, True))
# Example 3: integer weights
for r in range(4):
    T.row(Wk[r], f"W_k[{r + 1},:]", (34, 1 + r, False), role="input")
    T.row(Wq[r], f"W_q[{r + 1},:]", (35, 1 + r, False), role="input")
    T.row(Wv[r], f"W_v[{r + 1},:]", (36, 1 + r, False), role="input")
for r in range(3):
    T.row(K[r], f"keys = v @ W_k[{r + 1},:]", (38, 1 + r, True))
    T.row(Q[r], f"queries = v @ W_q[{r + 1},:]", (40, 1 + r, True))
    T.row(V[r], f"values = v @ W_v[{r + 1},:]", (42, 1 + r, True))
    T.row((Q[0] * K.T)[r], f"queries[0] * keys.t()[{r + 1},:]", (43, 1 + r, True))
    T.row(Q[r], f"queries (again)[{r + 1},:]", (44, 1 + r, True))
    T.row(K.T[r], f"keys.t()[{r + 1},:]", (45, 1 + r, True))
T.row(Q[0, 1] * K[0], "queries[0][1] * keys[0]", (46, 1, True))
T.row(sc, "attention_score = queries[0] @ keys.t()", (48, 1, True))
T.row(sc, "queries[0] @ keys.t() (again)", (49, 1, True))
T.row(a, "softmax(attention_score)", (50, 1, True))
# Example 2 (second part, float)
for r in range(3):
    T.row(x[r], f"v[{r + 1},:] (code)", (52, 1 + r, False), role="input")
    T.row(x[r], f"v[{r + 1},:] (printout)", (53, 1 + r, True), role="input")
T.row(x[0], "v[0]", (54, 1, True), role="input")
for r in range(4):
    T.row(Wk[r], f"w_key[{r + 1},:]", (56, 1 + r, False), role="input")
    T.row(Wq[r], f"w_query[{r + 1},:]", (57, 1 + r, False), role="input")
    T.row(Wv[r], f"w_value[{r + 1},:]", (58, 1 + r, False), role="input")
for r in range(3):
    T.row(Q[r], f"queries (float)[{r + 1},:]", (62, 1 + r, True))
    T.row(K[r], f"keys (float)[{r + 1},:]", (63, 1 + r, True))
    T.row((Q @ K)[r], f"queries @ keys (as written)[{r + 1},:]", (64, 1 + r, True))
T.mark_own_errors()
T.slip("3.9841e+00", "3.9481e+00", "swapped digits in a weighted state")
T.slip("tensor([0.2337, 3.2598, 3.2541])", "tensor([0.2337, 3.2958, 3.2541])", "swapped digits in a row sum")
T.slip("tensor([0.0634, 0.4683, 0.4683])", "tensor([0.0634, 0.4683, 0.4863])", "swapped digits in a softmax weight")
T.slip("[12., 16.,  4.]", "[12., 16.,  6.]", "one digit off in queries @ keys")
T.write()
