"""Double rounding is a note only where a program's two roundings give the printed digits (issue 18, own-error
recall).  pandas shows 0.373515 as .round(4) at display precision 3: 0.3735 is stored just below the half and
formats as 0.373, one unit under a single rounding.  0.845535 rounded to 4 decimals is 0.8455, stored just above
the half, and formats as 0.846: an author who writes 0.845 truncated it, a slip in a page that rounds elsewhere."""

from mha.check.claims.rounding import _double_rounding
from mha.check.numbers import Num


def test_the_pandas_double_rounding_stays_a_note():
    assert "double rounding" in _double_rounding(Num.parse("0.373"), 0.373515)


def test_a_truncation_that_no_program_double_rounding_gives_is_not_excused():
    assert f"{round(0.845535, 4):.3f}" == "0.846" and f"{round(0.845535, 5):.3f}" == "0.846"
    assert _double_rounding(Num.parse("0.845"), 0.845535) is None


def test_a_value_off_by_more_than_a_unit_is_never_a_double_rounding():
    assert _double_rounding(Num.parse("0.843"), 0.845535) is None
