"""exp(0.5) = 1.648: the exponential's digits cut off after the third, not rounded (1.64872 rounds to 1.649).

Outside trial t234c counted such a line an error, "borderline": the digits printed are all right, and many
authors truncate the values of exp, √ and log as they copy them from a calculator.  A value that only truncation
gives is now no slip (claims/arith.py `_cut_off`); one that neither truncation nor rounding gives still is.  My own
numbers."""

import math

import pytest

from check_helpers import error_findings, line_of

PAGE = """# Exponentials of the scores

- exp(0.5) = {a}
- exp(1.2) = {b}
- sqrt(2) = {c}
"""


def test_my_numbers():
    assert (f"{math.exp(0.5):.4f}", f"{math.exp(1.2):.4f}", f"{math.sqrt(2):.4f}") == ("1.6487", "3.3201", "1.4142")


def test_values_cut_off_hold():
    assert error_findings(PAGE.format(a="1.648", b="3.320", c="1.414")) == []


@pytest.mark.parametrize("a, b, c, wrong", [("1.648", "3.320", "1.415", "1.415"),     # √2 is 1.414 either way
                                            ("1.684", "3.320", "1.414", "1.684"),     # swapped digits
                                            ("1.648", "3.302", "1.414", "3.302")])
def test_values_neither_cut_nor_rounded_are_found(a, b, c, wrong):
    page = PAGE.format(a=a, b=b, c=c)
    assert [(f.line, f.printed) for f in error_findings(page)] == [(line_of(page, wrong), wrong)]
