"""Arithmetic written out in a LaTeX source's running text, outside any math (the note's "arithmetic in LaTeX
running text other than `\\item name = ... = value`"): a Markdown page's prose line `the sum is 1.00 + 2.72 + 7.39
= 11.11` is read, the same line in a .tex file was not.  A line with no math and no macro left after the text
macros are taken off is read as a Markdown prose line is.  My own numbers: softmax of (0, 1, 2)."""

from check_helpers import error_findings

_TEX = r"""\documentclass{article}
\begin{document}
\section{Turning three scores into weights}
The scores are 0, 1 and 2, and their exponentials are 1.00, 2.72 and 7.39.
Adding them, \textbf{the sum} is 1.00 + 2.72 + 7.39 = {total}.
Each share is the exponential over the sum: 7.39 / 11.11 = {share}.
The weights $0.09, 0.24, 0.67$ add up to one.
\end{document}
"""


def _page(total="11.11", share="0.67"):
    return _TEX.replace("{total}", total).replace("{share}", share)


def test_running_text_arithmetic_that_holds_gives_no_finding():
    assert error_findings(_page(), fmt="tex") == []


def test_slips_in_running_text_arithmetic_are_found():
    found = error_findings(_page(total="11.21"), fmt="tex")
    assert [(f.line, f.printed) for f in found] == [(5, "11.21")]
    found = error_findings(_page(share="0.76"), fmt="tex")
    assert [(f.line, f.printed) for f in found] == [(6, "0.76")]
