"""Which printed terms of an arithmetic line carry their own rounding (numbers.exact_below): a term printed to as
many significant digits as the result, three or more, may be a rounded intermediate (`11.17 / sqrt(6) = 4.559`,
worked from 11.167); a short term is a given (`0.5125 / 1.2 = 0.43`: 1.2 is the exact sum)."""

import pytest

from mha.check import check_document


def _errors(line: str) -> list[str]:
    r = check_document(f"One line worked by hand\n\n{line}\n", fmt="txt")
    return [f.printed for f in r.findings if f.severity == "error"]


@pytest.mark.parametrize("line,wrong", [
    ("scaled: 11.17 / sqrt(6) = 4.559", []),        # 11.165 ... 11.175 over √6 spans 4.5581 ... 4.5622
    ("scaled: 11.17 / sqrt(6) = 4.565", ["4.565"]),  # outside every reading of 11.17
    ("share: 0.5125 / 1.2 = 0.43", []),
    ("share: 0.5125 / 1.2 = 0.44", ["0.44"]),        # 1.2 read as a rounding would allow 0.41 ... 0.45
])
def test_terms_that_may_be_rounded(line, wrong):
    assert _errors(line) == wrong
