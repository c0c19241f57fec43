r"""A saturated softmax written out with its tiny weights in e-notation, `softmax([24, 0, 0]) ≈ [0.99999999992,
3.78e-11, 3.78e-11]` (an outside trial's Chinese course notes, t249b).  A printed number was held to its digits
with a float-noise allowance of 1e-9 at the scale of 1, which swallowed every digit of 3.78e-11: a slip to
3.87e-11 passed.  A printed number far below 1e-6 is held to its digits with noise at its own scale.
My own numbers."""

import pytest
from check_helpers import error_places, line_of

from mha.check.numbers import Num


def _page(second="4.54e-5", third="2.06e-9"):
    return "\n".join([
        "## A score far above the others", "",
        "```",
        f"softmax([10, 0, -10]) ≈ [0.99995, {second}, {third}]",
        "```", ""])


def test_the_clean_saturated_row_checks_clean():
    assert error_places(_page()) == []


@pytest.mark.parametrize("second,third,bad", [("4.54e-5", "2.60e-9", "2.60e-9"), ("4.45e-5", "2.06e-9", "4.45e-5")])
def test_a_slipped_tiny_weight_is_found(second, third, bad):
    page = _page(second, third)
    assert error_places(page) == [(line_of(page, bad), bad)]


def test_the_allowance_is_at_the_numbers_own_scale():
    assert not Num.parse("3.87e-11").contains(3.775e-11)
    assert Num.parse("3.78e-11").contains(3.775e-11)
    assert Num.parse("0.5").contains(0.5 + 5e-10)       # float noise at the scale of 1 stays allowed


def test_a_float32_subnormal_keeps_the_old_allowance():
    # (an outside trial's notebook, t253a: torch prints softmax weights near 1e-44 in float32, whose subnormals keep
    # only a few bits: 1.5414e-44 is float32's 11 × 2^-149 for the exact 1.5518e-44)
    assert Num.parse("1.5414e-44").contains(1.55184e-44)
    assert not Num.parse("3.87e-11").contains(3.775e-11)
