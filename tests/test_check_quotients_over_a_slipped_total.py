"""Weights worked as quotients whose written total is itself a hair off, the weights right (an outside trial's
sentiment-analysis notes, t262c): `softmax([2.0, 1.0]) = [7.39/10.10, 2.72/10.10] = [0.731, 0.269]`, where
e² + e¹ is 10.11.  The printed 0.731 is the softmax, rounded right; the check of the vector line blamed it because
7.39/10.10 gives 0.732, since the result at the end of such a line was never matched to the configuration.  When
the result holds, the slip is in the terms, not in it: here the quotient written with the slipped total is the one
finding.  My own numbers: scores 1 and 0, written e/(e+1), the total 3.718 slipped to 3.714."""

from check_helpers import error_findings

_PAGE = """Scores of one query: `score(a) = 1.0`, `score(b) = 0.0`.

```
softmax([1.0, 0.0]) = [e/(e+1), 1/(e+1)] = [2.718/3.714, 1/3.714]
                    = [{w1}, {w2}]
```
"""


def test_right_weights_after_a_slightly_wrong_total_hold():
    found = error_findings(_PAGE.format(w1="0.731", w2="0.269"))
    assert [(f.line, f.printed) for f in found] == [(4, "2.718/3.714")]


def test_a_wrong_weight_there_is_still_found():
    found = error_findings(_PAGE.format(w1="0.731", w2="0.289"))
    assert (5, "0.289") in [(f.line, f.printed) for f in found]
