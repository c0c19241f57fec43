"""Weights printed beside scores that were rounded harder than they were (scores at one decimal, weights at two):
a weight is judged against the least and greatest value its softmax takes while every score stays within its
printed rounding (claims/printchain.softmax_box), exactly, not against a linear band widened for safety, which
let a weight of 0.65 stand beside scores whose softmax cannot exceed 0.645 there."""

import numpy as np

from mha.check import check_document
from mha.check.claims.printchain import _rows_softmax, softmax_box

# scores of one head taken at full precision ([[0.43, 1.12, 1.98], [1.47, -0.32, 0.61], [-0.84, 0.27, 0.52]]),
# printed rounded to one decimal; the weights are the softmax of the full-precision scores, at two decimals
SESSION = """# Looking at attention weights from a trained layer

I pulled the raw scores of one head for a three-token prompt and printed them rounded to one decimal, so they
fit on a slide. The weights below are the softmax of the full-precision scores, printed with two decimals.

```python
>>> scores = layer.last_scores[0, 0]
>>> print(scores.round(decimals=1))
tensor([[ 0.4,  1.1,  2.0],
        [ 1.5, -0.3,  0.6],
        [-0.8,  0.3,  0.5]])
>>> weights = torch.softmax(scores, dim=-1)
>>> print(weights.round(decimals=2))
tensor([[0.13, 0.26, 0.61],
        [0.63, 0.10, 0.27],
        [0.13, 0.38, 0.49]])
```

The first token puts most of its weight on the last one; the second token keeps most of it for the first.
"""


def _errors(text):
    return [f for f in check_document(text, fmt="md").findings if f.severity == "error"]


def test_weights_of_the_unrounded_scores_check_clean():
    r = check_document(SESSION, fmt="md")
    assert r.n_claims >= 1 and r.n_numbers >= 9 and not r.findings, [f.describe() for f in r.findings]


def test_a_weight_no_rounded_score_can_give_is_found():
    # 0.65 with the row still summing to 1: softmax([0.4, 1.1, 2.0] ± 0.05)[3] is at most 0.6449
    errs = _errors(SESSION.replace("[0.13, 0.26, 0.61]", "[0.11, 0.24, 0.65]"))
    assert [(f.line, f.step, f.printed) for f in errs] == [(14, "softmax", "0.65")], [f.describe() for f in errs]


def test_the_box_is_exact_and_holds_every_softmax_of_scores_inside_it():
    lo, hi = softmax_box(np.array([[0.4, 1.1, 2.0]]), np.full((1, 3), 0.05))
    assert abs(hi[0, 2] - 0.6449) < 1e-4 and abs(lo[0, 2] - 0.5979) < 1e-4
    rng = np.random.default_rng(7)
    for _ in range(300):                      # never cries wolf: the true weights always lie in the box
        s = rng.normal(0, 2, size=(2, 4))
        s[1, 3] = -np.inf                     # a masked key stays masked
        half = np.where(np.isfinite(s), 0.05, 0.0)
        lo, hi = softmax_box(np.where(np.isfinite(s), np.round(s, 1), s), half)
        p = _rows_softmax(s)
        assert np.all(p >= lo - 1e-12) and np.all(p <= hi + 1e-12)
