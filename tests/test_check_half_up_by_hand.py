"""A weight rounded twice by hand, half up: 0.186475 written 0.1865 in the author's head, then 0.187.

Outside trial t190a (course notes with softmax tables at three decimals): 0.186475 printed 0.187 was an error,
where the same table's 0.0575 to 0.058 was a note.  A program formats the float 0.1865, stored just below the
half, as 0.186; a person rounding the written digits half up gets 0.187.  Both are the rounding of a rounding
(claims/rounding.py `_double_rounding`); any other value is still a slip.
"""

from mha.check.claims.rounding import _double_rounding
from mha.check.numbers import Num


def test_half_up_by_hand_is_a_rounding_of_a_rounding():
    assert f"{round(0.186475, 4):.3f}" == "0.186"      # the float 0.1865 prints below the half
    note = _double_rounding(Num.parse("0.187"), 0.186475)
    assert note is not None and "0.1865" in note


def test_a_program_s_print_is_still_one_too():
    assert _double_rounding(Num.parse("0.373"), 0.373515) is not None      # 0.3735 stored below: 0.373


def test_other_values_are_still_slips():
    assert _double_rounding(Num.parse("0.188"), 0.186475) is None
    assert _double_rounding(Num.parse("0.185"), 0.186475) is None
