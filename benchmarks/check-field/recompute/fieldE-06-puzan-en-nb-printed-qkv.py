"""fieldE-06: Puzan789/Transformers_From_Scratch, Self_Attention/SelfAttention.ipynb (English notebook).
np.random Q, K, V (4 x 8) are drawn but PRINTED (8 decimals), so everything after them can be recomputed: Q K^T, the
variances of q, k and Q K^T, Q K^T / sqrt(8) and its variance, the tril mask, the masked scores, the causal and the
unmasked softmax.  A second Q/K/V is drawn, printed, and put through the causal attention (the additive mask of
cell 11): output and weights, the output printed again in cell 20.
Judging: the givens carry 8 decimals, so a recomputed value can differ from an 8-decimal printout by a few 1e-8;
a printed number counts as right within half a unit of its last digit plus 5e-7 (rounded givens carried forward)."""
import re
import numpy as np
from _truth import Truth, decimals, value

T = Truth("fieldE-06-puzan-en-nb-printed-qkv")
NUM = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?|-?\d+(?:e[-+]\d+)")


def out_numbers(cell, first, last):
    """(printed, (cell, line, True)) for every number in the cell's output lines first..last, in order."""
    got = []
    for ln in range(first, last + 1):
        s = T.lines[(cell, ln, True)]
        s = s.split("dtype")[0]
        got += [(m.group(), (cell, ln, True)) for m in NUM.finditer(s)]
    return got


def block(cell, first, last, exact, what, role="derived"):
    flat = [x for x in np.ravel(exact) if np.isfinite(x)]
    got = out_numbers(cell, first, last)
    if len(got) != len(flat):
        raise SystemExit(f"{what}: {len(got)} printed, {len(flat)} expected")
    for k, ((p, at), x) in enumerate(zip(got, flat)):
        ok = abs(value(p) - x) <= 0.5 * 10 ** -decimals(p.split("e")[0]) * (10 ** int(p.split("e")[1]) if "e" in p else 1) + 5e-7
        T.num(p, x, f"{what}[{k + 1}]", at, role=role, correct=ok if role == "derived" else None)


def matrix_from(cell, first, last, shape):
    return np.array([value(p) for p, _ in out_numbers(cell, first, last)]).reshape(shape)


def find_out(cell, needle):
    return T.find(needle, cell=cell, output=True)[1]


def softmax(S):
    E = np.exp(S - S.max(1, keepdims=True))
    return E / E.sum(1, keepdims=True)


# cell 2: the first Q, K, V as printed
a, b, c = find_out(2, "Q "), find_out(2, "K "), find_out(2, "V ")
q = matrix_from(2, a + 1, b - 1, (4, 8))
k = matrix_from(2, b + 1, c - 1, (4, 8))
v = matrix_from(2, c + 1, c + 8, (4, 8))
for (m, lo, hi, name) in ((q, a + 1, b - 1, "q"), (k, b + 1, c - 1, "k"), (v, c + 1, c + 8, "v")):
    block(2, lo, hi, m, f"cell 2 {name}", role="input")
QK = q @ k.T
block(4, 1, 4, QK, "q k^T")
block(5, 1, 1, [q.var(), k.var(), QK.var()], "var q, var k, var q k^T")
S = QK / np.sqrt(8)
block(6, 1, 1, [S.var()], "var of q k^T / sqrt(8)")
block(7, 1, 4, S, "q k^T / sqrt(8)")
M = np.tril(np.ones((4, 4)))
block(10, 1, 4, M, "tril mask")
Sm = np.where(M > 0, S, -np.inf)
block(12, 1, 4, Sm, "masked scores")
block(15, 1, 4, softmax(Sm), "causal weights")
block(16, 1, 4, softmax(S), "unmasked weights")
# cell 19: the second Q, K, V as printed, then the causal attention
a, b, c = find_out(19, "Query:"), find_out(19, "Key:"), find_out(19, "value:")
d, e = find_out(19, "New values"), find_out(19, "Attention")
q2, k2, v2 = (matrix_from(19, lo, hi, (4, 8)) for lo, hi in ((a + 1, b - 1), (b + 1, c - 1), (c + 1, d - 1)))
for (m, lo, hi, name) in ((q2, a + 1, b - 1, "q2"), (k2, b + 1, c - 1, "k2"), (v2, c + 1, d - 1, "v2")):
    block(19, lo, hi, m, f"cell 19 {name}", role="input")
A2 = softmax(np.where(M > 0, q2 @ k2.T / np.sqrt(8), -np.inf))
block(19, d + 1, e - 1, A2 @ v2, "causal output")
block(19, e + 1, e + 4, A2, "causal weights (second draw)")
block(20, 1, 8, A2 @ v2, "causal output (repeated)")
T.mark_own_errors()
T.slip("15.00218275", "15.00281275", "swapped digits in a score")
T.slip("5.30407258", "5.03407258", "swapped digits in a scaled score")
T.slip("0.90843712", "0.90834712", "swapped digits in a causal weight")
T.slip("0.71322146", "0.71322416", "swapped digits in a weight of the second draw")
T.write()
