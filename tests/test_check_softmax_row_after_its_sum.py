r"""A softmax worked in a code block: the call with its scores, the exponentials, their sum on a line of its own,
then the row on a line that starts with "=" (an outside trial's page, t244a).  The "=" line went on from the sum
("sum = 22.05 = [..]", a number equal to a vector), so the row was read as a row sum and a slip in it was set
aside.  The row is the value of the softmax call above the work.  My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document


def _page(row=None):
    s = np.array([0.0, 2.0, 1.0])
    e = np.exp(s)
    w = softmax(s)
    row = row or "[" + ", ".join(f"{x:.2f}" for x in w) + "]"
    return "\n".join([
        "Softmax of the first row of scores:", "", "```",
        "Row 1: softmax([0.00, 2.00, 1.00])",
        "  e^0 = 1.00, e^2 = 7.39, e^1 = 2.72",
        f"  sum = {e.sum():.2f}",
        f"  = {row}   # most of it on the second token", "```", ""])


def test_the_row_is_the_softmax_and_holds():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert not any("row sum" in n.reason for n in report.not_checked)


def test_a_slip_in_the_row_is_found():
    page = _page("[0.09, 0.76, 0.24]")
    assert error_places(page) == [(line_of(page, "0.76, 0.24"), "0.76")]
