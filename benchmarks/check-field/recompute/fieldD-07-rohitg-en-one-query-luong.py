"""fieldD-07: rohitg00/ai-engineering-from-scratch, phase 5 lesson 10 "attention mechanism" (English Markdown).
One query against a few keys: three encoder states H (3x3) and a decoder state s; Luong dot scoring H s (no scale),
softmax, context = weights @ H.  The lesson prints only the weights (3 decimals) and, later, the output and
weight shapes of nn.MultiheadAttention on random inputs (batch 2, 5 queries, 10 keys, 128 wide: weights averaged
over heads).  Both right."""
import numpy as np
from _truth import Truth

H = np.array([[1.0, 0.0, 0.2], [0.5, 0.5, 0.1], [0.1, 0.9, 0.3]])
s = np.array([0.9, 0.1, 0.2])
e = H @ s
w = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
print("scores", e, "weights", w.round(4), "context", (w @ H).round(4))

T = Truth("fieldD-07-rohitg-en-one-query-luong")
T.row(w, "softmax(H s)", T.find("weights: [0.464 0.305 0.231]"))
T.row([2, 5, 128, 2, 5, 10], "output and weight shapes", T.find("torch.Size([2, 5, 128]) torch.Size([2, 5, 10])"))
T.slip("weights: [0.464 0.305 0.231]", "weights: [0.464 0.350 0.231]", "swapped digits in a weight")
T.slip("torch.Size([2, 5, 128]) torch.Size([2, 5, 10])", "torch.Size([2, 5, 128]) torch.Size([2, 10, 5])", "transposed weight shape")
T.mark_own_errors()
T.write()
