r"""A softmax worked in steps whose last line is named by what it does, `divide by sum: [...]` (an outside trial's
page, t243a): the word "sum" made it the row sum, so a slip in those weights was set aside ("labelled row sum but
matches nothing of that name").  Each exponential divided by their sum is a weight.  My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document


def _page(weights=None):
    s = np.array([1.5, 0.5, -1.0])
    e = np.exp(s - s.max())
    w = softmax(s)
    weights = weights or "[" + ", ".join(f"{x:.2f}" for x in w) + "]"
    return "\n".join([
        "Softmax, step by step:", "",
        "scores = [1.5, 0.5, -1.0]",
        "subtract max: [0.0, -1.0, -2.5]",
        "exponentiate: [" + ", ".join(f"{x:.2f}" for x in e) + "]",
        f"divide by the sum: {weights}", "",
        "Every weight is positive and together they make 1.", ""])


def test_the_divided_values_are_the_weights_and_hold():
    report = check_document(_page(), fmt="txt")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 6, report.n_numbers


def test_a_slip_in_a_divided_value_is_found():
    page = _page("[0.69, 0.52, 0.06]")
    assert error_places(page, fmt="txt") == [(line_of(page, "0.52"), "0.52")]
