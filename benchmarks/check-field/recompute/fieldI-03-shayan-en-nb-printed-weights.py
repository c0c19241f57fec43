"""fieldI-03: shayanamir0/all-attentions-you-will-need, self-attention.ipynb (English notebook).  An 11-word sentence
is embedded (nn.Embedding after torch.manual_seed(123), the 11x3 embeddings printed to 4 decimals), W_query (3x2),
W_key (3x2) and W_value (3x4) are drawn by torch.rand after torch.manual_seed(123) and printed to 4 decimals; then
the query of word 2 against all keys: one score, the 11 scores, softmax(scores / sqrt(2)), the context vector; then
a SelfAttention class drawing the same three matrices after the same seed, whose printed 11x4 output repeats the
context vector in its second row.
The printed numbers were computed (float32) from the unrounded embeddings and weights, so a printed number counts as
right when it lies within what the printed 4-decimal givens allow: the givens are moved within half a unit of their
last digit (random draws, fixed seed) and the printed value must lie within the range reached, widened by half a unit
of its own last digit.  No own error."""
import numpy as np
from _truth import Truth, rounds_to, decimals

E = np.array([[0.3374, -0.1778, -0.3035], [0.4965, -1.5723, 0.9666], [0.2692, -0.0770, -1.0205],
              [-1.1925, 0.6984, -1.4097], [1.3010, 1.2753, -0.2010], [-0.1690, 0.9178, 1.5810],
              [0.2692, -0.0770, -1.0205], [-0.5880, 0.3486, 0.6603], [-0.2196, -0.3792, 0.7671],
              [-0.6315, -2.8400, -1.3250], [-1.1481, -1.1589, 0.3255]])
Wq = np.array([[0.2961, 0.5166], [0.2517, 0.6886], [0.0740, 0.8665]])
Wk = np.array([[0.1366, 0.1025], [0.1841, 0.7264], [0.3153, 0.6871]])
Wv = np.array([[0.0756, 0.1966, 0.3164, 0.4017], [0.1186, 0.8274, 0.3821, 0.6605], [0.8536, 0.5932, 0.6367, 0.9826]])


def forward(E, Wq, Wk, Wv):
    Q, K, V = E @ Wq, E @ Wk, E @ Wv
    om2 = Q[1] @ K.T
    a2 = np.exp(om2 / np.sqrt(2)); a2 /= a2.sum()
    S = Q @ K.T / np.sqrt(2)
    A = np.exp(S - S.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
    return {"om24": np.array([om2[4]]), "om2": om2, "a2": a2, "ctx2": a2 @ V, "out": (A @ V).ravel()}


exact = forward(E, Wq, Wk, Wv)
rng = np.random.default_rng(0)
d = lambda M: M + rng.uniform(-5e-5, 5e-5, M.shape)  # noqa: E731
runs = [forward(d(E), d(Wq), d(Wk), d(Wv)) for _ in range(400)]
lo = {k: np.min([r[k] for r in runs], 0) for k in exact}
hi = {k: np.max([r[k] for r in runs], 0) for k in exact}
for k in exact:
    print(k, np.round(exact[k], 4))

T = Truth("fieldI-03-shayan-en-nb-printed-weights")


def derived(key, at, what, first=0, n=None):
    """The printed numbers of one output line against exact[key][first:first+n], each judged within its interval."""
    line = T._line(at).split("grad_fn=")[0]
    import re
    printed = re.findall(r"-?\d+\.\d+", line)
    vals = exact[key][first:first + len(printed)]
    for j, (p, x) in enumerate(zip(printed, vals)):
        half = 0.5 * 10 ** -decimals(p)
        v = float(p)
        ok = rounds_to(p, x) or (lo[key][first + j] - half <= v <= hi[key][first + j] + half)
        T.num(p, x, f"{what}[{first + j + 1}]", at, correct=ok)
    return len(printed)


for r in range(11):
    T.row(E[r], f"embedded_sentence[{r + 1}]", T.find(["[[ 0.3374", "[ 0.4965", "[ 0.2692", "[-1.1925", "[ 1.3010",
                                                       "[-0.1690", "[ 0.2692", "[-0.5880", "[-0.2196", "[-0.6315",
                                                       "[-1.1481"][r], cell=3, output=True, nth=1 if r == 6 else 0),
          role="input")
for r in range(3):
    T.row(Wq[r], f"Wquery[{r + 1}]", (5, 2 + r, True), role="input")
    T.row(Wk[r], f"Wkey[{r + 1}]", (5, 6 + r, True), role="input")
    T.row(Wv[r], f"Wvalue[{r + 1}]", (5, 10 + r, True), role="input")
derived("om24", (8, 1, True), "omega_24 = query_2 . keys[4]")
k = derived("om2", (9, 1, True), "omega_2 = query_2 @ keys.T")
derived("om2", (9, 2, True), "omega_2 = query_2 @ keys.T", first=k)
k = derived("a2", (10, 1, True), "attention_weights_2 = softmax(omega_2 / sqrt(2))")
derived("a2", (10, 2, True), "attention_weights_2 = softmax(omega_2 / sqrt(2))", first=k)
derived("ctx2", (11, 2, True), "context_vector_2")
for r in range(11):
    derived("out", (13, 1 + r, True), "SelfAttention(seed 123, same draws) output", first=4 * r)
T.mark_own_errors()
T.slip("0.0782, -0.0514, -0.0944", "0.0782, -0.0514, -0.0494", "swapped digits in a score")
T.slip("0.0928, 0.0951, 0.0867", "0.0928, 0.0591, 0.0867", "swapped digits in a weight")
T.slip("tensor([-0.1538, -0.3559, -0.2394, -0.3801], grad_fn=<SqueezeBackward4>)",
       "tensor([-0.1538, -0.3559, -0.2349, -0.3801], grad_fn=<SqueezeBackward4>)", "swapped digits in the context vector")
T.slip("[ 0.8501,  1.0934,  0.8401,  1.3405]", "[ 0.8501,  1.0934,  0.8401, -1.3405]", "a dropped-in sign in an output")
T.write()
