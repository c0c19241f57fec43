"""A weight one unit off, with the same digits as an earlier dot product (t223a, an English course chapter: the
score `0.30 + 0.12 = 0.42` worked out at its top, and a causal weight `0.42` for the exact 0.4319 a hundred lines
on).  The weight was called a copy of that working ("the same value as worked out on line 63 from the rounded
values before it"), a note, so the page's own slip was not reported.  A copy of a working is a weight only when the
working can give a weight: a quotient or one with exponentials in it (claims/vector.py `_a_share`), not a sum of
products.  My own scores."""

from check_helpers import error_places, line_of

PAGE = """# Scores by hand

```
score(q, k1) = 0.30 + 0.12 = 0.42
score(q, k2) = 0.05 - 0.25 = -0.20
score(q, k3) = 0.18 + 0.12 = 0.30
```

Then the weights:

softmax([0.5, -0.2, 0.3]) = [{w}, 0.21, 0.35]
"""


def test_the_right_weights_hold():
    # softmax([0.5, -0.2, 0.3]) = [0.4319, 0.2145, 0.3536], by hand: e^0.5 = 1.6487, e^-0.2 = 0.8187, e^0.3 = 1.3499
    assert error_places(PAGE.format(w="0.43")) == []


def test_a_weight_with_a_dot_products_digits_is_still_a_slip():
    text = PAGE.format(w="0.42")
    assert error_places(text) == [(line_of(text, "softmax(["), "0.42")]
