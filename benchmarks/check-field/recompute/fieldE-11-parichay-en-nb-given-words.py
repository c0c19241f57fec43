"""fieldE-11: ParichayMago/TransformersFromScratch, 2_self_attention.ipynb (English study notebook, run out of order:
the execution counts decide which value a name holds, and were followed here).
Part 1, from the six word vectors given to 8 decimals (cell 1): one query's dot-product scores, the scores divided
by their sum, a loop that adds the weighted words twice into the same tensor (context_vect_2 IS context_vect, so the
printed vector is twice the weighted sum: right for the code as written), the 6x6 scores, their softmax (unscaled)
and the context vectors.
Part 2: nn.Linear layers drawn after torch.manual_seed(123) or later without a seed, weights never printed.  What
follows printed projections is reachable from them (4 decimals): softmax(scores / sqrt(2)) from the printed scores of
cell 27, its product with `values` (still the inputs, cell 9), query @ keys.T from the printed query and keys of
cell 39, their softmax, attn_scores @ keys (the code multiplies by keys), the causal product with tril, the masked
scores and their softmax.  The rest (projections themselves, dropout, a fresh model, the CausalAttention and
multi-head cells, an empty cell's stale output) is kept with its printed value and marked unreachable.
Judging: a number is right within half a unit of its last digit plus the error its 4-decimal givens carry."""
import re
import numpy as np
from _truth import Truth, decimals, value

T = Truth("fieldE-11-parichay-en-nb-given-words")
NUM = re.compile(r"-?\d+\.\d+|-?\d+")


def out_nums(cell):
    got = []
    for (c, ln, o), s in sorted(T.lines.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if c == cell and o:
            s = re.sub(r"grad_fn=<\w+>", "", s).replace("-inf", "")
            got += [(m.group(), (c, ln, True)) for m in NUM.finditer(s)]
    return got


def block(cell, exact, what, tol=1e-6, role="derived", skip=0):
    got = out_nums(cell)[skip:]
    flat = [x for x in np.ravel(exact) if np.isfinite(x)]
    if len(got) < len(flat):
        raise SystemExit(f"{what}: {len(got)} printed, {len(flat)} expected")
    for k, ((p, at), x) in enumerate(zip(got, flat)):
        ok = abs(value(p) - x) <= 0.5 * 10 ** -decimals(p) + tol
        T.num(p, x, f"{what}[{k + 1}]", at, role=role, correct=ok if role == "derived" else None)
    return len(flat)


def random_block(cell, what, skip=0):
    for k, (p, at) in enumerate(out_nums(cell)[skip:]):
        T.num(p, value(p), f"(random) {what}[{k + 1}]", at, correct=True)


def printed(cell, shape, skip=0):
    vals = [value(p) for p, _ in out_nums(cell)[skip:]]
    n = int(np.prod(shape))
    return np.array(vals[:n]).reshape(shape)


def softmax(S):
    E = np.exp(S - np.nanmax(np.where(np.isfinite(S), S, np.nan), axis=-1, keepdims=True))
    return E / E.sum(-1, keepdims=True)


X = np.array([[0.31897191, 0.70165633, 0.87015771], [0.66534041, 0.17288046, 0.60692252],
              [0.05295369, 0.36576202, 0.38331766], [0.30033345, 0.98547427, 0.18919171],
              [0.66448752, 0.07724835, 0.56031583], [0.75046948, 0.03739152, 0.90530486]])
block(1, X, "inputs", role="input")
s2 = X @ X[1]
block(3, s2, "scores of word 2")
a2 = s2 / s2.sum()
block(5, a2, "scores / their sum")
seq = []
for i in range(6):
    seq += [a2[i], *X[i]]
seq += list(2 * (a2 @ X))                       # the same tensor accumulated twice
block(7, seq, "loop prints and context_vect_2")
block(9, [6, 3], "values.shape")
S = X @ X.T
block(11, S, "scores (loops)")
block(12, S, "scores (inputs @ inputs.T)")
block(14, [6, 6], "attn_weights.shape")
block(15, softmax(S) @ X, "context vectors")
block(17, [3, 2], "d_in, d_out")
random_block(20, "q_2")
for c in (21, 22, 23):
    block(c, [6, 2], f"cell {c} shape")
random_block(25, "query[2].keys[2]")
random_block(27, "query[2] @ keys.T")
s27 = printed(27, (6,))
w30 = softmax(s27 / np.sqrt(2))
block(28, [2, 2, 6], "shapes")
block(29, w30, "softmax(attn_score / sqrt(2))", tol=1e-5)
block(30, w30, "attn_weight_2", tol=1e-5)
block(31, [6, 6, 3], "shapes")
w30p = printed(30, (6,))
block(32, w30p @ X, "attn_weight_2 @ values", tol=3e-4)
block(33, list(w30) + list(X.ravel()), "attn_weight_2, values (repeated)", tol=1e-5)
block(35, X, "inputs (repeated)", role="input")
random_block(36, "q2")
random_block(37, "softmax(q2 @ v.T / sqrt(2))")
random_block(38, "c_2")
random_block(39, "query, keys, values")
q39, k39 = printed(39, (6, 2)), printed(39, (6, 2), skip=12)
S41 = q39 @ k39.T
block(41, S41, "query @ keys.T", tol=1.5e-4)
S41p = printed(41, (6, 6))
A42 = softmax(S41p / np.sqrt(2))
block(42, A42, "softmax(attn_weights / sqrt(2))", tol=2e-5)
A42p = printed(42, (6, 6))
block(43, A42p @ k39, "attn_scores @ keys", tol=3e-4)
random_block(45, "model(inputs), a fresh model")
block(48, S41p * np.tril(np.ones((6, 6))), "attn_weights * tril")
M49 = np.where(np.triu(np.ones((6, 6)), 1) > 0, -np.inf, A42p)
block(49, M49, "masked attn_scores")
A50 = softmax(M49 / np.sqrt(2))
block(50, A50, "causal weights", tol=2e-5)
random_block(51, "dropout(causal weights)")
block(52, np.stack([X, X]), "batch", role="input")
block(54, [2, 6, 3], "batch.shape")
random_block(54, "CausalAttention(batch)", skip=3)
random_block(56, "multi-head attempt output")
block(57, np.stack([X, X]), "b", role="input")
block(58, np.where(np.triu(np.ones((6, 6))) > 0, -np.inf, 0.0), "masked triu(ones)")
random_block(59, "multi-head attn_scores")
random_block(60, "stale output of an empty cell")
T.mark_own_errors()
T.slip("tensor([0.8616, 0.8409, 0.3311", "tensor([0.8616, 0.8409, 0.3131", "swapped digits in a score")
T.slip("[0.5072, 0.3479, 0.6372]", "[0.5072, 0.3497, 0.6372]", "swapped digits in a context vector")
T.slip("0.1769, 0.1627, 0.1661", "0.1769, 0.1672, 0.1661", "swapped digits in a softmax weight")
T.slip("[0.5029, 0.4971,", "[0.5092, 0.4971,", "swapped digits in a causal weight")
T.write()
