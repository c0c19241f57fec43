"""A row's sum said in prose (t222f, a lesson: "Each row of the softmax weights sums to `1.0` (softmax over
`axis=-1`). Raw scores `[2, 6]` scaled to `[1, 3]` land near `[0.12, 0.88]`").  The `1.0` was read as the first
weight and called a slip of 0.12, a false finding.  A number said to be what something sums to is that row's sum
(readers/prose.py `_SUMS_TO`, labels.py).  My own scores: softmax([0, 2.2]) = [0.182, 0.818]."""

from check_helpers import error_places, line_of

PAGE = """# Scaled scores

- Scores `[0, 4.4]` divided by `√4 = 2` give `[0, 2.2]`; `softmax([0, 2.2]) ≈ [{w}]`.
- Each **row** of the softmax weights sums to `1.0` (softmax over `axis=-1`). Scores `[0, 4.4]` scaled to `[0, 2.2]`
  land near `[{w}]`, far from an even split.
"""


def test_the_said_sum_is_no_weight():
    assert error_places(PAGE.format(w="0.10, 0.90")) == []


def test_a_slipped_weight_is_still_found():
    text = PAGE.format(w="0.01, 0.90")
    assert error_places(text) == [(line_of(text, "0.01"), "0.01")]


def test_labels_that_end_in_sums_to_name_the_sum():
    from mha.check import labels as lb
    assert lb.parse_label("each row of the softmax weights sums to").nodes == ("row_sum",)
    assert lb.parse_label("softmax weights").nodes == ("A",)
