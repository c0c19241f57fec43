r"""Three forms from one page of lecture notes (t158a), each a false finding:

* "The largest weight rises from 0.576 to 0.665" where the scale is dropped: the value after the change is the
  other setting's; the value before it is this example's, so the sentence is no slip (claims/aside._CHANGE).  A
  value after a change that is this example's is still judged (tests/test_check_never_wolf.py, the cross page).
* `0.25 / 5.0\times10^{-4} = 500`: a divisor written in scientific notation is one number, not (0.25/5.0)×10⁻⁴
  (readers/expr._scientific_after).
* `(1 + 2.333333 + 1.333333 + 2)/4 = 6.666667/4`: thirds rounded to six places, with whole addends beside them,
  add to the true total; the whole addends are exact and do not make the rounded ones a slip
  (claims/arith._rounded_addends).
"""

import numpy as np

from mha.check import check_document

DOC = r"""# One query, scaled and not

The scores of the query are $(0, 2, 1)$ and $d_k = 2$, so the scaled scores are $(0, 1.414, 0.707)$ and

$$
\alpha = \operatorname{softmax}(0, 1.414, 0.707) = (0.140, 0.576, 0.284)
$$

Without the scale the weights would be $(0.090, 0.665, 0.245)$: the largest weight, $\alpha_{12}$, rises from 0.576 to 0.665.

A ratio of two weights: $0.25 / 5.0\times10^{-4} = 500$.

The mean of four numbers: $\mu = (1 + 2.333333 + 1.333333 + 2)/4 = 6.666667/4 = 1.666667$.
"""


def test_the_numbers_are_what_numpy_gives():
    def softmax(x):
        e = np.exp(np.asarray(x, float) - max(x))
        return e / e.sum()
    assert np.round(softmax(np.array([0, 2, 1]) / np.sqrt(2)), 3).tolist() == [0.140, 0.576, 0.284]
    assert np.round(softmax([0, 2, 1]), 3).tolist() == [0.090, 0.665, 0.245]
    assert 0.25 / 5.0e-4 == 500 and round(1 + 7 / 3 + 4 / 3 + 2, 6) == 6.666667 and round(1 + 2.333333 + 1.333333 + 2, 6) == 6.666666


def test_the_page_gives_no_finding():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_slips_in_the_same_lines_are_still_found():
    r = check_document(DOC.replace("= (0.140, 0.576, 0.284)", "= (0.140, 0.567, 0.284)"), fmt="md")
    assert 6 in [f.line for f in r.errors], [f.describe() for f in r.errors]
    r = check_document(DOC.replace("= 500$", "= 50$"), fmt="md")
    assert [f.line for f in r.errors] == [11], [f.describe() for f in r.errors]
    r = check_document(DOC.replace("= 6.666667/4", "= 6.666767/4"), fmt="md")
    assert [f.line for f in r.errors] == [13], [f.describe() for f in r.errors]


def test_a_finding_on_the_value_after_a_change_is_withdrawn_only_when_the_value_before_is_right():
    from mha.check.claims.aside import _why
    from mha.check.report import Finding
    lines = ["The largest weight rises from 0.576 to 0.665 without the scale."]
    other = Finding(1, None, "A: the largest weight", "0.665", 0.57588, "0.576", "softmax")
    assert "other setting" in _why(other, lines)
    slip = Finding(1, None, "A: the largest weight", "0.665", 0.61234, "0.612", "softmax")
    assert _why(slip, lines) is None           # neither value is this example's: the finding stands
