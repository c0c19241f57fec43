r"""A softmax of the scores [1, 0, 1] worked by hand to a closed form in Euler's e, `e/(2e+1) ≈ 0.42`, on a line
that also writes exp(1) (an outside trial's quiz page, t245a).  `2e+1` was read as the number 2×10¹, so two right
lines got an "arithmetic slip" each, and the value after ≈ was never held to the form before it.  On a line that
writes exp() or e^x, `2e+1` is 2e + 1 and a bare e is Euler's number.  My own numbers."""

import math

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(second="0.16"):
    e = math.e
    assert f"{e / (2 * e + 1):.2f}" == "0.42" and f"{1 / (2 * e + 1):.2f}" == "0.16"
    return "\n".join([
        "# Quiz: one query, three keys", "",
        "q = [1, 0], k1 = [1, 0], k2 = [0, 1], k3 = [1, 0]", "",
        "Scores, no scaling: q·k1 = 1, q·k2 = 0, q·k3 = 1.", "",
        "- w1 = exp(1)/(exp(1)+exp(0)+exp(1)) = e/(2e+1) ≈ 0.42",
        f"- w2 = exp(0)/(exp(1)+exp(0)+exp(1)) = 1/(2e+1) ≈ {second}",
        "- w3 = exp(1)/(exp(1)+exp(0)+exp(1)) = e/(2e+1) ≈ 0.42", ""])


def test_a_closed_form_in_euler_e_is_no_number_in_scientific_notation():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_the_value_after_the_closed_form_is_held_to_it():
    page = _page("0.19")
    assert error_places(page, fmt="md") == [(line_of(page, "≈ 0.19"), "0.19")]


def test_scientific_notation_without_euler_stays_a_number():
    page = "\n".join(["Learning rates tried: 2e+1 is far too large; 3e-4 is the usual start.", ""])
    report = check_document(page + "\nsum = 2e+1 + 1 = 21\n", fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    slipped = check_document(page + "\nsum = 2e+1 + 1 = 23\n", fmt="md")
    assert [f.printed for f in slipped.findings if f.severity == "error"] == ["23"]


def test_an_epsilon_beside_exp_stays_a_number():
    page = "\n".join(["With exp(s) / sum(exp(s)) and eps = 1e-5 added twice: 2 × 1e-5 = 0.00002", ""])
    report = check_document(page, fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    slipped = check_document(page.replace("0.00002", "0.00005"), fmt="md")
    assert [f.printed for f in slipped.findings if f.severity == "error"] == ["0.00005"]
