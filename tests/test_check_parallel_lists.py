"""Two lists on either side of an arrow (t221c, a Chinese walkthrough's code comment: `梯度 ≈ 0.21*0.79, 0.39*0.61 →
0.17, 0.24`): each item on the left is worked into the number at its place on the right.  The line was split at
its commas, so `0.39*0.61 → 0.17` was judged, a false finding.  Such lists are paired item by item
(readers/splitting.py `_parallel_lists`).  My own numbers."""

from check_helpers import error_places, line_of

PAGE = """# Gradients of the softmax

```python
# after scaling the weights are about [0.30, 0.45, 0.25]
# so the local gradients p*(1-p) ≈ 0.30*0.70, 0.45*0.55, 0.25*0.75 → {a}, {b}, {c} (no longer tiny)
```
"""


def test_each_item_goes_to_its_own_number():
    assert error_places(PAGE.format(a="0.21", b="0.25", c="0.19")) == []


def test_a_slip_in_one_of_the_results_is_found():
    text = PAGE.format(a="0.21", b="0.52", c="0.19")
    assert error_places(text) == [(line_of(text, "→"), "0.52")]
