"""Two readings from an outside trial's page (t240d), each with a page of my own.

1. `w = torch.softmax(scores, dim=-1)` printed in one section, then, in the next, `w = torch.tensor([[0.1, 0.3,
   0.6], ...])`: weights the author types in to show the weighted sum.  The code's earlier definition made that
   literal "the softmax of the scores" (or the configuration's A), and the entries a one-decimal row happened to
   share with the softmax identified it: the others were reported wrong.  A literal typed for a name that code in an
   earlier cell computed is the author's setting (`readers/python.py`, `Builder.code_computed`), unless all its
   entries but one agree with the computed values: such a copy's slip is still found
   (tests/test_check_approximation_said_abroad.py).
2. `out = 0.5*v1 + 0.5*v2 = [0.5, 0.0] + [0.0, 1.0] = [0.5, 1.0]`: the vectors summed are the named products worked
   out, exact as written, so the result is their sum to its printed digit; a slip of one unit in it was allowed as
   the terms' rounding (`claims/vector.py`), and when the row resembled an entry of the example in one cell, the
   entry's value was given as the exact one instead of the terms' sum (`claims/array.py`).
My own numbers."""

import pytest
from check_helpers import error_findings, error_places, line_of


def _weights_page(typed="[[0.1, 0.3, 0.6], [0.5, 0.2, 0.3], [0.3, 0.5, 0.2]]", out="[[1.3000, 1.2000], "
                  "[1.1000, 0.7000], [0.7000, 1.2000]]", a_row2="[0.5065, 0.1863, 0.3072]"):
    return "\n".join([
        "# Weights, then a weighted sum", "", "## Softmax", "", "```python",
        "scores = torch.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 0.5], [2.0, 2.0, 0.5]])",
        "w = torch.softmax(scores, dim=-1)", "print(w)", "```", "", "```",
        "tensor([[0.0900, 0.2447, 0.6652],", f"        {a_row2},", "        [0.4498, 0.4498, 0.1004]])",
        "```", "", "## Mixing the values", "", "Take some weights of our own to see the mixing:", "", "```python",
        f"w = torch.tensor({typed})", "V = torch.tensor([[1.0, 0.0], [0.0, 2.0], [2.0, 1.0]])", "print(w @ V)",
        f"# tensor({out})", "```", ""])


@pytest.mark.parametrize("typed, out", [
    ("[[0.1, 0.3, 0.6], [0.5, 0.2, 0.3], [0.3, 0.5, 0.2]]", "[[1.3000, 1.2000], [1.1000, 0.7000], [0.7000, 1.2000]]"),
    ("[[0.1, 0.3, 0.6], [0.5, 0.2, 0.3], [0.5, 0.4, 0.1]]", "[[1.3000, 1.2000], [1.1000, 0.7000], [0.7000, 0.9000]]"),
])
def test_weights_typed_in_a_later_cell_are_not_the_softmax(typed, out):
    assert error_findings(_weights_page(typed, out)) == []


def test_the_printed_softmax_is_still_judged():
    page = _weights_page(a_row2="[0.5065, 0.1683, 0.3072]")
    assert error_places(page) == [(line_of(page, "0.1683"), "0.1683")]


def _sum_page(result="[0.5, 1.0]"):
    return "\n".join([
        "# A weighted sum by hand", "", "With weights 0.5 and 0.5 and values `v1=[1.0,0.0]`, `v2=[0.0,2.0]`:", "",
        "```text", "out = 0.5*v1 + 0.5*v2", "    = [0.5,0.0] + [0.0,1.0]", f"    = {result}", "```", ""])


def test_written_products_hold_their_sum_to_its_digit():
    assert error_findings(_sum_page()) == []
    page = _sum_page("[0.5, 1.1]")
    errs = error_findings(page)
    assert [(f.line, f.printed, f.exact) for f in errs] == [(line_of(page, "[0.5, 1.1]"), "1.1", 1.0)], \
        [f.message() for f in errs]


def _worked_weights_page(result="[0.27, 1.46]", rel="="):
    return "\n".join([
        "# Weights worked out, then the sum", "", "Values `v1=[1.0,0.0]`, `v2=[0.0,2.0]`, scores 0 and 1:", "",
        "```text", "w1 = e^0/(e^0+e^1) = 0.27", "w2 = e^1/(e^0+e^1) = 0.73", "", "out = 0.27*v1 + 0.73*v2",
        "    = [0.27,0.0] + [0.0,1.46]", f"    {rel} {result}", "```", ""])


def test_products_of_worked_weights_said_equal_to_their_sum_are_held_to_it():
    assert error_findings(_worked_weights_page()) == []
    page = _worked_weights_page("[0.27, 1.47]")          # one unit off the sum of what is written
    assert [(f.line, f.printed) for f in error_findings(page)] == [(line_of(page, "[0.27, 1.47]"), "1.47")]
    # after "≈" the author may carry the weights' full values: 1.47 is within the weights' own rounding
    assert error_findings(_worked_weights_page("[0.27, 1.47]", rel="≈")) == []
