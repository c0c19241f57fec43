"""Weights of one significant digit leave the softmax's offset loose: `softmax([9, 13, 7, 11]) ≈ [0.016, 0.976,
0.001, 0.007]` (the right row is [0.016, 0.865, 0.002, 0.117]) cannot be made right by moving one score, since no
value of the fourth gives 0.016, 0.976 and 0.001 as printed.  The weights are wrong, not the score that the page
states on the line above.  The page is this project's own."""

from check_helpers import error_lines

PAGE = """# Why scale

```python
# Without scaling the softmax saturates:
# scores = [9, 13, 7, 11]
# softmax([9, 13, 7, 11]) ≈ [WEIGHTS]
```
"""


def test_weights_no_single_score_explains_are_the_slip():
    found = error_lines(PAGE.replace("WEIGHTS", "0.016, 0.976, 0.001, 0.007"))
    assert list(found) == [6] and all(f.claim.startswith("weight ") for f in found[6])
    assert sorted(f.printed for f in found[6]) == ["0.001", "0.007", "0.976"]


def test_the_right_weights_hold():
    assert error_lines(PAGE.replace("WEIGHTS", "0.016, 0.865, 0.002, 0.117")) == {}
