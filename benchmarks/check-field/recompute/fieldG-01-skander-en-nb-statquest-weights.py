"""fieldG-01: SkanderGasmi/2025-Attention-in-Transformers-deeplearning.ai, self_attention.ipynb (English notebook
following a short course).  Starts from X with weights: a 3x2 encodings matrix written in the code, nn.Linear weights
drawn under torch.manual_seed(42) but PRINTED (transposed, 4 decimals), then q, k, v, the similarities q k^T, the
scaled similarities (over sqrt(2)), the softmax percentages and the output, every one printed at 4 decimals.
Exact values are recomputed from the printed weights; since the notebook computed with the unrounded float32
weights, a number counts as right when it lies within what the printed 4-decimal weights allow (each weight moved
within half a unit of its last digit, 4000 draws, the whole chain recomputed: "carried" is the nearest such value).  The first output (cell 7) repeats the last one."""
import numpy as np
from _truth import Truth

X = np.array([[1.16, 0.23], [0.57, 1.36], [4.41, -2.16]])
Wq = np.array([[0.5406, -0.1657], [0.5869, 0.6496]])       # printed W_q.weight.transpose(0, 1)
Wk = np.array([[-0.1549, -0.3443], [0.1427, 0.4153]])
Wv = np.array([[0.6233, 0.6146], [-0.5188, 0.1323]])
Q, K, V = X @ Wq, X @ Wk, X @ Wv
S = Q @ K.T
Ssc = S / np.sqrt(2)
A = np.exp(Ssc) / np.exp(Ssc).sum(1, keepdims=True)
O = A @ V
# one step from the rounded printouts
Qp = np.array([[0.7621, -0.0428], [1.1063, 0.7890], [1.1164, -2.1336]])
Kp = np.array([[-0.1469, -0.3038], [0.1057, 0.3685], [-0.9914, -2.4152]])
Vp = np.array([[0.6038, 0.7434], [-0.3502, 0.5303], [3.8695, 2.4246]])
Sp = np.array([[-0.0990, 0.0648, -0.6523], [-0.4022, 0.4078, -3.0024], [0.4842, -0.6683, 4.0461]])
Sscp = np.array([[-0.0700, 0.0458, -0.4612], [-0.2844, 0.2883, -2.1230], [0.3424, -0.4725, 2.8610]])
Ap = np.array([[0.3573, 0.4011, 0.2416], [0.3410, 0.6047, 0.0542], [0.0722, 0.0320, 0.8959]])
Op = np.array([[1.0100, 1.0641], [0.2040, 0.7057], [3.4989, 2.2427]])
print(Q, K, V, S, Ssc, A, O, sep="\n")


def chain(wq, wk, wv):
    q, k, v = X @ wq, X @ wk, X @ wv
    s = q @ k.T
    a = np.exp(s / np.sqrt(2)) / np.exp(s / np.sqrt(2)).sum(1, keepdims=True)
    return q, k, v, s, s / np.sqrt(2), a, a @ v


rng = np.random.default_rng(0)
draws = [chain(*(W + rng.uniform(-5e-5, 5e-5, W.shape) for W in (Wq, Wk, Wv))) for _ in range(4000)]
lo = [np.min([d[i] for d in draws], 0) for i in range(7)]
hi = [np.max([d[i] for d in draws], 0) for i in range(7)]
near = [np.clip(P, lo[i], hi[i]) for i, P in enumerate((Qp, Kp, Vp, Sp, Sscp, Ap, Op))]

T = Truth("fieldG-01-skander-en-nb-statquest-weights")
at = T.find("encodings_matrix = torch.tensor", cell=7)
for r in range(3):
    T.row(X[r], f"encodings[{r + 1},:]", (at[0], at[1] + r, False), role="input", last=False)
for cell, W, name in ((9, Wq, "W_q^T"), (10, Wk, "W_k^T"), (11, Wv, "W_v^T")):
    for r in range(2):
        T.row(W[r], f"{name}[{r + 1},:] printed", (cell, r + 1, True), role="input")
for cell, M, C, what in ((12, Q, near[0], "q = X W_q"), (13, K, near[1], "k = X W_k"), (14, V, near[2], "v = X W_v"),
                         (15, Q, near[0], "q again"), (16, K, near[1], "k again"),
                         (17, S, near[3], "sims = q k^T"), (18, Ssc, near[4], "sims / sqrt(2)"),
                         (19, A, near[5], "softmax percents"), (20, O, near[6], "output = A v"),
                         (7, O, near[6], "self-attention output")):
    for r in range(3):
        T.row(M[r], f"{what}[{r + 1},:]", (cell, r + 1, True), carried=C[r])
T.mark_own_errors()
T.slip('"tensor([[-0.0990,  0.0648, -0.6523],\\n"', '"tensor([[-0.0990,  0.0684, -0.6523],\\n"',
       "swapped digits in a similarity")
T.slip('"        [0.3410, 0.6047, 0.0542],\\n"', '"        [0.3410, 0.6047, 0.0452],\\n"',
       "swapped digits in an attention percentage")
T.slip('"        [-0.2844,  0.2883, -2.1230],\\n"', '"        [-0.2844,  0.2883, 2.1230],\\n"',
       "dropped sign in a scaled similarity")
T.write()
