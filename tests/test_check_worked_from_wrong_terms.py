"""A softmax worked from exponentials printed on the line above, one of them cut short (t214c, a softmax and
cross-entropy walkthrough): `exp ≈ [0.332, 1.0, 0.449]` (e^{-1.1} is 0.3329), then `softmax = [0.332/1.781, ...] ≈
[0.186, ...]`.  The 0.186 is what its own written fraction gives; it was judged against the exact weight (0.187) and
counted as a second slip, and so was the fraction itself.  Both are notes pointing to the exponential now
(claims/workedterms.py); a weight that its own fraction does not give is still an error."""

from check_helpers import error_findings, line_of
from mha.check import check_document

PAGE = r"""# Softmax of three logits

Logits `[0.3, 1.4, 0.6]`, shifted by their maximum:

$$z - \max z = [-1.1, 0, -0.8]$$

$$\exp = [e^{-1.1}, e^{0}, e^{-0.8}] \approx [0.332, 1.0, 0.449]$$

$$\text{sum} = 0.332 + 1.0 + 0.449 = 1.781$$

$$\text{softmax} = \left[ \frac{0.332}{1.781}, \frac{1.0}{1.781}, \frac{0.449}{1.781} \right] \approx [W1, 0.561, 0.252]$$
"""


def test_weights_worked_from_a_wrong_exponential_are_notes():
    text = PAGE.replace("W1", "0.186")
    assert [(f.line, f.printed) for f in error_findings(text)] == [(line_of(text, "approx [0.332"), "0.332")]
    notes = [f for f in check_document(text, fmt="md").findings if f.severity == "note"]
    assert any(f.printed == "0.186" and "follows from line 7" in f.cause for f in notes)


def test_a_weight_its_own_fraction_does_not_give_is_still_found():
    text = PAGE.replace("W1", "0.168")
    assert ("0.168" in [f.printed for f in error_findings(text)])
