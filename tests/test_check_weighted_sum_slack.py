"""How far a written weighted sum may stray from its printed terms (t220d: `0.58 × [1, 0] + 0.14 × [0, 1] + 0.28 ×
[1, 1] = [0.86, 0.44]` passed, as did 0.88 for the first entry).  The room allowed was a share of every printed
digit's rounding, integers included: about two units in the last place.  With vectors given as whole numbers it is
now what the weights' own rounding can move each entry, added in quadrature (claims/vector.py): 0.43 can come from
weights rounded to 0.14 and 0.28, 0.44 cannot."""

import pytest

from check_helpers import error_places, line_of

PAGE = """# The weighted sum

```text
0.58 × [1, 0] + 0.14 × [0, 1] + 0.28 × [1, 1]
= [{a}, {b}]
```
"""


@pytest.mark.parametrize("a, b", [("0.86", "0.42"), ("0.86", "0.43"), ("0.87", "0.42")])
def test_within_the_weights_rounding(a, b):
    assert error_places(PAGE.format(a=a, b=b)) == []


@pytest.mark.parametrize("a, b, wrong", [("0.86", "0.44", "0.44"), ("0.88", "0.42", "0.88")])
def test_two_units_off_is_a_slip(a, b, wrong):
    text = PAGE.format(a=a, b=b)
    assert error_places(text) == [(line_of(text, "= ["), wrong)]
