"""A row of weights that states its sum in parentheses with no colon, and with a decimal comma (t155a, German lesson
pages kept as strings in code): `"Gewichte: 0,0587 / 0,0949 / 0,7274 / 0,1190 (Summe 1,0000)",`.  Only "(sum: 1.0)"
was read as a stated sum, and only at the very end of a line; the colon may be left out, the number may have a
decimal comma, and a closing quote or comma may end the line (claims/rowsum._SAID_SUM)."""

from mha.check import check_document

import pytest

TEXT = """Lesson: one query, four keys

  "weights: 0,1375 / 0,2650 / 0,4851 / 0,1124 (Summe 1,0000)",
  "weights in English: 0.2210 / 0.3300 / 0.4490 (sum 1.0000)"
"""


def test_the_rows_add_up_as_printed():
    assert round(0.1375 + 0.2650 + 0.4851 + 0.1124, 4) == 1.0
    assert round(0.2210 + 0.3300 + 0.4490, 4) == 1.0


def test_rows_that_add_up_give_no_finding():
    r = check_document(TEXT, fmt="text")
    assert not r.errors and r.n_claims >= 2, [f.describe() for f in r.findings]


@pytest.mark.parametrize("old,new,line", [("0,2650", "0,2750", 3), ("0.3300", "0.3400", 4)])
def test_a_row_that_does_not_add_up_to_its_stated_sum_is_found(old, new, line):
    r = check_document(TEXT.replace(old, new), fmt="text")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
