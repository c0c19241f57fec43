"""fieldF-07: oudbiao/AI-fullstack-course, i18n/zh-Hans/docusaurus-plugin-content-docs/current/ch06-deep-learning/
ch05-transformer/01-attention-mechanism.md (Chinese Markdown, a course page; this version at commit f7b7038, the
later version is shorter).  Three labs with printed "expected output" blocks: Q = K = V = X (3x2) with scores,
weights over sqrt(2) and output; the same X with given 2x2 W_q, W_k, W_v and printed Q, K, V, weights, output; and
a given 3x3 score matrix through a causal mask and softmax.  A fourth lab (nn.MultiheadAttention after
torch.manual_seed(42)) prints only shapes and a row sum.  All printed numbers are right.

The bytes were taken from the stored index (read_file), not from a git mirror: the repository snapshot is over the
mirror's size limit.  The saved text has exactly the stored length (6670 characters)."""
import numpy as np
from _truth import Truth


def sm(r):
    e = np.exp(r - r.max())
    return e / e.sum()


X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
S1 = X @ X.T
A1 = np.apply_along_axis(sm, 1, S1 / np.sqrt(2))
O1 = A1 @ X
Wq = np.array([[1.0, 0.5], [0.0, 1.0]])
Wk = np.array([[0.5, 1.0], [1.0, 0.0]])
Wv = np.array([[1.0, -0.5], [0.5, 1.0]])
Q, K, V = X @ Wq, X @ Wk, X @ Wv
A2 = np.apply_along_axis(sm, 1, Q @ K.T / np.sqrt(2))
O2 = A2 @ V
S3 = np.array([[2.0, 1.0, 0.5], [1.2, 2.1, 0.7], [0.8, 1.3, 2.2]])
A3 = np.apply_along_axis(sm, 1, np.where(np.tril(np.ones((3, 3))) == 1, S3, -1e9))

T = Truth("fieldF-07-oudbiao-zh-md-qkv-mask")


def line_eq(text, nth=0):
    hits = sorted(k[1] for k, v in T.lines.items() if v == text)
    return (None, hits[nth], False)


def block(label, nth, n=3):
    """The n matrix rows printed under a label line (an output block)."""
    start = line_eq(label, nth)[1]
    return [(None, start + 1 + r, False) for r in range(n)]


# givens (two code blocks hold the same X)
for nth in range(2):
    for r in range(3):
        T.row(X[r], f"X row {r + 1} (code)", T.find(f"        [{X[r, 0]:.1f}, {X[r, 1]:.1f}],", nth=nth), role="input")
for name, W in (("W_q", Wq), ("W_k", Wk), ("W_v", Wv)):
    T.row(W.ravel(), name, T.find(f"{name} = np.array("), role="input")
for r in range(3):
    T.row(S3[r], f"lab-2 scores row {r + 1} (given)", T.find(f"        [{S3[r, 0]:.1f}, {S3[r, 1]:.1f}, {S3[r, 2]:.1f}],"),
          role="input")
# lab 1
for r, at in enumerate(block("scores", 0)):
    T.row(S1[r], f"lab-1 S = X X^T row {r + 1}", at)
for r, at in enumerate(block("weights", 0)):
    T.row(A1[r], f"lab-1 A row {r + 1}", at)
for r, at in enumerate(block("output", 0)):
    T.row(O1[r], f"lab-1 O row {r + 1}", at)
# lab 1B: the labels Q, K, V, weights, output (second "weights"/"output" label lines)
for label, M, nth in (("Q", Q, 0), ("K", K, 0), ("V", V, 0), ("weights", A2, 1), ("output", O2, 1)):
    for r, at in enumerate(block(label, nth)):
        T.row(M[r], f"lab-1B {label} row {r + 1}", at, role="derived")
# lab 2
for r, at in enumerate(block("mask_lab", 0)):
    T.row(A3[r], f"lab-2 causal A row {r + 1}", at)
# lab 3: seeded random layer, shapes and one row sum
T.num("1.0", 1.0, "(random) row sum of nn.MultiheadAttention weights", T.find("row0_sum: 1.0"))
T.mark_own_errors()
T.slip(" [0.198 0.401 0.401]\n [0.248 0.248 0.503]]\noutput\n[[0.802", " [0.198 0.401 0.401]\n [0.248 0.248 0.530]]\noutput\n[[0.802",
       "swapped digits in a weight")
T.slip(" [1.102 0.198]", " [1.102 0.189]", "swapped digits in an output")
T.slip(" [0.289 0.711 0.   ]", " [0.289 0.771 0.   ]", "one digit off in a masked weight")
T.slip(" [0.599 0.802]\n [0.752 0.752]]", " [0.599 0.802]\n [0.725 0.752]]", "swapped digits in an output")
T.write()
