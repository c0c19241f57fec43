"""Two ways a hand-made exercise sheet writes its sums (t213b, a Spanish solution sheet; 9 false findings):

* a list of named scores closed by its total, `scores: the -> 2, cat -> 8, sat -> 5 = 15`: the statements split at
  the commas and the last read "5 = 15".  The `= 15` is the list's total (readers/listtotal.py), judged as the sum;
* a share worked as a quotient of decimals times 100 and printed as a whole percent, `(40.17 / 59.22) * 100 = 68%`:
  68 was judged as exact against 67.83.  A quotient of decimals printed whole is rounded to units; one more than
  half a unit off is still a slip."""

import pytest

from check_helpers import error_places, line_of

LIST = """Scores the word "cat" gives each word (0-10), then the row's total:

scores: the -> 2, cat -> 8, sat -> 5, on -> {on}, mat -> 3 = 19
"""


def test_the_total_closes_the_list():
    assert error_places(LIST.format(on="1"), fmt="txt") == []


def test_a_wrong_total_is_the_sum_of_the_list():
    text = LIST.format(on="2")            # the list now sums to 20
    assert error_places(text, fmt="txt") == [(line_of(text, "= 19"), "19")]


def test_two_items_make_a_list_too():
    assert error_places("weights: a -> 3, b -> 9 = 12\n", fmt="txt") == []
    assert error_places("weights: a -> 3, b -> 9 = 13\n", fmt="txt") == [(1, "13")]


SHARES = """Softmax by hand, as percentages:

Sum of the exponentials = 59.22

cat: (40.17 / 59.22) * 100 = {cat}%
mat: (14.78 / 59.22) * 100 = 25%
sat: (4.27 / 59.22) * 100 = 7%
"""


def test_whole_percents_of_decimal_quotients_are_rounded():
    assert error_places(SHARES.format(cat="68"), fmt="txt") == []


@pytest.mark.parametrize("cat", ["69", "67"])
def test_a_percent_more_than_half_a_unit_off_is_found(cat):
    text = SHARES.format(cat=cat)         # 40.17 / 59.22 is 67.83%
    assert error_places(text, fmt="txt") == [(line_of(text, f"= {cat}%"), cat)]
