"""fieldE-12: Rakshithbodakuntla/scaled_dot_product_attention, scaled_dot_product_attention.ipynb (English notebook).
Starts from printed raw scores: Q, K, V are torch.randn after torch.manual_seed(0) and never printed, but batch 0's
raw scores Q K^T are (4 decimals).  From them a reader gets the scores over sqrt(d_k = 8), the softmax weights, the
softmax of row 0 with and without the scale, and the two maxima; the outputs need V (never printed): unreachable.
Judging: the raw scores carry 4 decimals, so a derived number is right within half a unit of its last digit plus
the error of those givens (the maxima are printed with all their float32 digits)."""
import re
import numpy as np
from _truth import Truth, decimals, value

T = Truth("fieldE-12-rakshith-en-nb-printed-scores")
NUM = re.compile(r"-?\d+\.\d+")
lines = {ln: s for (c, ln, o), s in T.lines.items() if c == 2 and o}


def nums(first, last):
    out = []
    for ln in range(first, last + 1):
        s = lines[ln].split(":")[-1] if ":" in lines[ln] else lines[ln]
        out += [(m.group(), (2, ln, True)) for m in NUM.finditer(s)]
    return out


def at_line(needle):
    return next(ln for ln, s in sorted(lines.items()) if needle in s)


def block(first, last, exact, what, tol, role="derived"):
    got = nums(first, last)
    flat = list(np.ravel(exact))
    assert len(got) == len(flat), (what, len(got), len(flat))
    for k, ((p, at), x) in enumerate(zip(got, flat)):
        ok = abs(value(p) - x) <= 0.5 * 10 ** -decimals(p) + tol
        T.num(p, x, f"{what}[{k + 1}]", at, role=role, correct=ok if role == "derived" else None)


def softmax(S):
    E = np.exp(S - S.max(-1, keepdims=True))
    return E / E.sum(-1, keepdims=True)


r0 = at_line("Raw scores") + 1
S = np.array([value(p) for p, _ in nums(r0, r0 + 3)]).reshape(4, 4)
block(r0, r0 + 3, S, "raw scores (batch 0)", 0, role="input")
s0 = at_line("Scaled scores for batch 0") + 1
block(s0, s0 + 3, S / np.sqrt(8), "scaled scores", 0.5e-4 / np.sqrt(8))
a0 = at_line("Attention weights for batch 0") + 1
A = softmax(S / np.sqrt(8))
block(a0, a0 + 3, A, "attention weights", 2e-5)
o0 = at_line("Output vectors for batch 0") + 1
for k, (p, at) in enumerate(nums(o0, o0 + 3)):
    T.num(p, value(p), f"(random) outputs (V never printed)[{k + 1}]", at, correct=True)
u = at_line("Unscaled softmax row 0")
block(u, u, softmax(S)[0], "unscaled softmax row 0", 5e-5)
v = at_line("Scaled softmax row 0")
block(v, v, A[0], "scaled softmax row 0", 2e-5)
m = at_line("Unscaled max score")
block(m, m, [S.max()], "max raw score", 0.5e-4)
n = at_line("Scaled max score")
block(n, n, [S.max() / np.sqrt(8)], "max scaled score", 0.5e-4 / np.sqrt(8))
T.mark_own_errors()
T.slip("[ 0.6468,  0.2628, -0.1814, -1.8064]", "[ 0.6468,  0.2628, -0.1841, -1.8064]", "swapped digits in a scaled score")
T.slip("[0.4537, 0.3090, 0.1982, 0.0390]", "[0.4537, 0.3900, 0.1982, 0.0390]", "swapped digits in a weight")
T.slip("tensor([0.0816, 0.8195, 0.0968, 0.0021])", "tensor([0.0816, 0.8159, 0.0968, 0.0021])", "swapped digits in an unscaled weight")
T.write()
