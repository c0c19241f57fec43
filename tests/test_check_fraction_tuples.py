"""Weights worked out as a tuple of fractions in LaTeX (t223d, course notes on the softmax:
`\\sigma(z) \\approx \\tuple{\\frac{2.718}{30.193}, ...} \\approx \\tuple{0.090, 0.245, 0.665}`, with the course's own
`\\tuple` macro).  Nothing on such a line was read: the macro was a word, `\\frac` cells in a vector were no arithmetic,
and a tuple in parentheses was no row.  Now a tuple macro is the tuple it stands for (readers/tokens.py
`tuple_macros`), and a row of fractions is judged cell by cell against the row it is said to equal
(claims/cellwise.py), in brackets or parentheses.  My own scores and exponentials."""

import math

import pytest

from check_helpers import error_places

# softmax of z = (0.5, 1.5, 2.5): e^0.5 = 1.649, e^1.5 = 4.482, e^2.5 = 12.182, their sum 18.313
TEX = r"""\documentclass{article}
\newcommand{\tuple}[1]{\left(#1\right)}
\begin{document}
The exponentials are $e^{0.5} \approx 1.649$, $e^{1.5} \approx 4.482$ and $e^{2.5} \approx 12.182$, which add up to
$1.649 + 4.482 + 12.182 = 18.313$, so
\[
\sigma(z) \approx OPEN\frac{1.649}{18.313}, \frac{4.482}{18.313}, \frac{12.182}{18.313}CLOSE \approx OPEN0.090, W, 0.665CLOSE
\]
\end{document}
"""

FORMS = {"macro": (r"\tuple{", "}"), "parentheses": (r"\left(", r"\right)"), "brackets": ("[", "]")}


def _page(form, w):
    open_, close = FORMS[form]
    return TEX.replace("OPEN", open_).replace("CLOSE", close).replace("W", w)


def test_the_numbers_are_right():
    e = [math.exp(x) for x in (0.5, 1.5, 2.5)]
    assert [f"{x:.3f}" for x in e] == ["1.649", "4.482", "12.182"]
    assert f"{sum(e):.3f}" == "18.313"
    assert [f"{x / 18.313:.3f}" for x in (1.649, 4.482, 12.182)] == ["0.090", "0.245", "0.665"]


@pytest.mark.parametrize("form", FORMS)
def test_the_right_row_holds(form):
    assert error_places(_page(form, "0.245"), fmt="tex") == []


@pytest.mark.parametrize("form", FORMS)
def test_a_slipped_weight_is_found(form):
    text = _page(form, "0.254")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "0.254" in ln)
    assert error_places(text, fmt="tex") == [(line, "0.254")]


def test_a_macro_without_a_comma_is_left_alone():
    from mha.check.readers.tokens import tuple_macros
    assert tuple_macros(r"\vect{x} = \tuple{1, 2}") == r"\vect{x} = (" + " " * 6 + "1, 2)"
