"""A result compared with a value given before, and ticked (t218b, a page on why the scores are scaled):
`New variance = (0.577)² × 52.33 = 17.44 ≈ 16.33 ✓` under `1D: variance = 16.33`.  The 16.33 is the reference the
result is said to come close to; it was judged as the result rounded and a right 17.44 was called wrong.  The chain
is read without it (readers/checkmarks.py); the arithmetic up to the result is still judged."""

from check_helpers import error_places, line_of

PAGE = """# Scaling keeps the variance

```
1D: variance = 16.33
3D: variance = 52.33
    scaled by 1/√3 = 0.577
    new variance = (0.577)² × 52.33 = {v} ≈ 16.33 ✓
```
"""


def test_a_ticked_reference_is_no_rounding_of_the_result():
    assert error_places(PAGE.format(v="17.42")) == []


def test_the_arithmetic_before_it_is_still_judged():
    text = PAGE.format(v="17.92")
    assert error_places(text) == [(line_of(text, "17.92"), "17.92")]


def test_an_unticked_approximation_is_still_judged():
    text = PAGE.format(v="17.42").replace(" ✓", "")
    assert error_places(text) != []
