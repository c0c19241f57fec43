"""fieldF-09: BlazeWild/Hav-Cocap, learn/multiheadattn.ipynb (English notebook, "multi head attention matrix
operations in detail").  Starts from X with weights: X (2 x 6 x 4) and W_q, W_k, W_v (4 x 4) are drawn at random but
rounded to two decimals and printed, so they are exact givens.  Two heads of width 2: Q_total = X W_q printed, the
raw per-head scores (all 144, e-notation), the scores of batch 0 / head 0 over sqrt(2) and their softmax (rounded to 2
decimals), every head's context vectors, and the concatenation of the heads (no W_O).  All printed numbers are right.
The markdown cells 7 and 9 show an unrelated illustrative Q_total and W without results; they are not recorded."""
import re
import numpy as np
from _truth import Truth

X = np.array([[[-0.78, 0.19, 1.48, -1.23], [1.96, 0.47, -0.4, 0.59], [-0.1, -0.76, 0.97, 1.61],
               [1.63, -0.93, 3.04, -0.44], [-1.11, 1.49, -0.39, -0.31], [-1.87, 0.83, -0.9, 0.39]],
              [[0.68, -1.06, 0.47, -0.77], [0.64, -1.77, -0.7, -2.07], [-0.54, -0.03, -1.02, -0.56],
               [-1.35, -0.49, -0.42, -0.7], [-0.03, 0.45, -0.36, 0.96], [-0.23, -0.91, 1.46, 0.07]]])
Wq = np.array([[0.1, 0.27, -0.35, -0.11], [-1.86, -0.25, -1.25, -0.36], [-0.71, 1.71, -1.17, 1.05],
               [0.08, 1.76, 0.53, -0.1]])
Wk = np.array([[0.7, -1.52, 2.67, 0.06], [-1.46, 2.02, -0.78, -0.83], [1.39, -1.07, -0.52, 1.11],
               [1.73, 1.05, 1.47, 1.17]])
Wv = np.array([[-1.26, 0.25, 0.03, 1.92], [0.58, -0.25, -0.46, 1.69], [0.08, -1.85, -0.71, 0.3],
               [1.64, -0.9, 1.04, 0.72]])
B, S, N, H, dh = 2, 6, 4, 2, 2
Qt, Kt, Vt = X @ Wq, X @ Wk, X @ Wv
split = lambda t: t.reshape(B, S, H, dh).transpose(0, 2, 1, 3)  # noqa: E731
Q, K, V = split(Qt), split(Kt), split(Vt)
scores = Q @ K.transpose(0, 1, 3, 2)
scaled = scores / np.sqrt(dh)
E = np.exp(scaled - scaled.max(-1, keepdims=True))
A = E / E.sum(-1, keepdims=True)
O = A @ V
concat = O.transpose(0, 2, 1, 3).reshape(B, S, N)
print(Qt[0, 0], scores[0, 0, 0], A[0, 0, 0], O[0, 0, 0])

T = Truth("fieldF-09-blazewild-en-nb-two-heads")
NUM = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?|-?\d+(?:e[-+]\d+)?")


def output_numbers(cell):
    """(line key, printed) for every number in a cell's output lines that hold array rows (no label lines)."""
    keys = sorted((k for k in T.lines if len(k) == 3 and k[0] == cell and k[2]), key=lambda k: k[1])
    out = []
    for k in keys:
        s = T.lines[k]
        if ":" in s or not s.strip() or not (s.strip()[0] in "[-" or s.strip()[0].isdigit()):
            continue
        out += [(k, m.group().rstrip(".") if m.group().endswith(".") else m.group()) for m in NUM.finditer(s)]
    return out


def record(cell, exact, what, role="derived", start=0):
    nums = output_numbers(cell)[start:start + len(exact)]
    assert len(nums) == len(exact), (cell, len(nums), len(exact))
    for i, ((k, p), x) in enumerate(zip(nums, exact)):
        T.num(p, x, f"{what}[{i}]", k, role=role)
    return len(exact)


record(3, X.ravel(), "X (printed, rounded at draw)", role="input")
n = record(6, Wq.ravel(), "W_q", role="input")
n += record(6, Wk.ravel(), "W_k", role="input", start=n)
record(6, Wv.ravel(), "W_v", role="input", start=n)
record(8, Qt.ravel(), "Q_total = X W_q")
record(16, scores.ravel(), "per-head scores Q K^T")
record(18, scaled[0, 0].ravel(), "scores / sqrt(2), batch 0 head 0")
record(20, A[0, 0].ravel(), "softmax, batch 0 head 0")
T.num("1.0000000000000002", A[0, 0, 0].sum(), "sum of the first row", T.find("Sum of first row:", cell=20, output=True))
n = record(22, O.ravel(), "context vectors A V")
record(22, O[0, 0, 0], "context, batch 0 head 0 word 0 (repeated)", start=n)
n = record(25, concat[0, 0], "concatenated heads, batch 0 word 0")
record(25, concat.ravel(), "concatenated heads", start=n)
T.mark_own_errors()
T.slip("[-0.347   0.7661 -0.4928 -0.8638]", "[-0.347   0.7616 -0.4928 -0.8638]", "swapped digits in Q_total")
T.slip("[ -0.49  -0.81  -1.67  -5.84   3.58   3.95]", "[ -0.49  -0.81  -1.76  -5.84   3.58   3.95]",
       "swapped digits in a scaled score")
T.slip("[0.87 0.01 0.   0.02 0.09 0.  ]", "[0.78 0.01 0.   0.02 0.09 0.  ]", "swapped digits in a weight")
T.write()
