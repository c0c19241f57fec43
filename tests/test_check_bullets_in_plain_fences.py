"""A list written inside a plain fence (notes kept as ASCII art): `- √36 = 6` under "head size 36:".  The bullet was
read as a minus sign, and the right root was an arithmetic slip, "-√36 gives -6" (t209d, a project's notes on
scaling).  In a fence of plain text a bullet before a formula is a bullet; a wrong root written so is still found."""

from check_helpers import error_places, line_of


def page(root: str) -> str:
    return f"""# Scaling the scores

One query against two keys, head size 36.

```
Head size d_k = 36, so:
- √36 = {root}
- every raw score is divided by {root}

raw scores:    [12, 6]
```
"""


def test_a_bullet_in_a_plain_fence_is_no_minus_sign():
    assert error_places(page("6")) == []


def test_a_wrong_root_after_the_bullet_is_found():
    text = page("7")
    assert error_places(text) == [(line_of(text, "√36 = 7"), "7")]


SUM = """# Summing the weighted values

```
  [0.5, 1.0, 0.0]
+ [1.0, 2.0, 0.5]
- [0.5, 0.5, 0.5]
-----------------
= [1.0, 2.5, {last}]
```
"""


def test_plus_and_minus_before_a_bracket_still_go_on_with_the_sum():
    assert error_places(SUM.format(last="0.0")) == []
    text = SUM.format(last="0.5")
    assert error_places(text) == [(line_of(text, "= [1.0, 2.5, 0.5]"), "0.5")]
