"""fieldH-07: 11PRIMUS/attention-mechanism, self_attention.ipynb (English notebook, executed).  The same six 3-wide
inputs as the repository's simple_attention notebook (fieldH-04), then W_query, W_key, W_value drawn by torch.rand after
torch.manual_seed(123) and never printed: query_2, the scores of query_2 against all keys, the softmax of the scores
over sqrt(d_k = 2), and the context vector.  Only the weights follow from printed numbers (softmax of the printed
scores / sqrt(2)); query_2, the scores (and the commented repeat 1.8524) and the context vector depend on the unprinted
weights, and are marked "(random)" for reachable.py.  Their exact values come from torch with the same seed (the
notebook's own code, rerun here only to judge the printout): every printed number agrees at 4 decimals."""
import numpy as np
import torch
from _truth import Truth

X = np.array([[0.42, 0.13, 0.81], [0.55, 0.87, 0.66], [0.22, 0.58, 0.33],
              [0.54, 0.85, 0.64], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
torch.manual_seed(123)
Wq, Wk, Wv = (torch.rand(3, 2).double().numpy() for _ in range(3))
q2 = X[1] @ Wq
Kx, Vx = X @ Wk, X @ Wv
s = q2 @ Kx.T
s_printed = np.array([1.1548, 1.8524, 1.0795, 1.8049, 0.5577, 1.5440])
w = np.exp(s / np.sqrt(2)) / np.exp(s / np.sqrt(2)).sum()
w_from_printed = np.exp(s_printed / np.sqrt(2)) / np.exp(s_printed / np.sqrt(2)).sum()
ctx = w @ Vx
print(q2, s, w, w_from_printed, ctx, sep="\n")

T = Truth("fieldH-07-primus-en-nb-seeded-weights")
for r in range(6):
    T.row(X[r], f"inputs x{r + 1}", (4, 5 + r, False), role="input")
T.num("3", 3, "d_in", T.find("# the input embedding size, d=3", cell=5), role="input")
T.num("2", 2, "d_out", T.find("d_out = 2", cell=5), role="input")
T.row(q2, "(random) query_2 = x_2 W_query", (7, 1, True))
T.row([6, 2], "keys.shape", (8, 1, True))
T.row([6, 2], "values.shape", (8, 2, True))
T.num("1.8524", s[1], "(random) score of query_2 against key_2 (commented)", T.find("tensor(1.8524)", cell=9))
T.row(s, "(random) attn_score3 = query_2 keys^T", (9, 1, True))
T.row(w_from_printed, "attn_weights = softmax(scores / sqrt(2))", (10, 1, True))
T.row(ctx, "(random) context_vec = weights values", (11, 1, True))
T.mark_own_errors()
T.slip("tensor([0.1400, 0.2293, 0.1328", "tensor([0.1400, 0.2239, 0.1328", "swapped digits in a weight")
T.slip("0.2217, 0.0918, 0.1844", "0.2217, 0.0981, 0.1844", "swapped digits in a weight")
T.slip("tensor([0.3046, 0.8082])", "tensor([0.3064, 0.8082])", "swapped digits in the context vector")
T.write()
