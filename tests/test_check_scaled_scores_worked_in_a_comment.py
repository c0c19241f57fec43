"""Scaled scores worked out in a code comment (`# scaled = [1.5, 6.2, 2.4] / 8` over `#        = [0.19, 0.78, 0.30]`),
the weights after them.  A vector line whose result matches the configuration clears the line (the slip is then in
its terms); a result the configuration starts from matches it by definition, so that rule must not clear it.  A
field document (a given-scores HTML page) lost a found slip when the rule was first extended to such results,
before the stop; this page of mine guards the line's own arithmetic but does not reproduce that document's
configuration (its start is the printed row itself), which I could not rebuild without reading the document.  My
own numbers: raw scores [1.5, 6.2, 2.4], d_k = 64."""

from check_helpers import error_findings

_PAGE = """```python
# the query "cat" against three keys, d_k = 64, √64 = 8
# scaled = [1.5, 6.2, 2.4] / 8
#        = [0.19, {s2}, 0.30]
weights = softmax(scaled)   # [0.26, 0.46, 0.28]
```
"""


def test_scaled_scores_that_hold():
    assert error_findings(_PAGE.format(s2="0.78")) == []


def test_a_slip_in_the_scaled_scores_is_found_on_their_line():
    found = error_findings(_PAGE.format(s2="0.72"))
    assert (4, "0.72") in [(f.line, f.printed) for f in found]
