r"""A name inside brackets that close before the next number (t157b, a practice page with a beam search): "Top-2
kept: $-1.609$ (beam1+$w_1$) and $-2.079$ (beam1+$w_2$)".  The prose reader took w_1, the last name before -2.079, as
that number's name, and the checker compared it with w_1 worked out elsewhere: a false finding on a right page.  A
name in brackets closed before the number is said of what comes before the brackets, and one item of a list ("$w_1$
and $-2.079$") names no number after it (readers/prose._nearest_label).
"""

from mha.check import check_document
from mha.check.readers import prose

DOC = r"""# Two steps of a beam

For the first beam: $w_1: -0.511 - 1.204 = -1.715$; $w_2: -0.511 - 2.303 = -2.814$.

Kept: $-1.715$ (beam1+$w_1$) and $-2.814$ (beam1+$w_2$).
"""


def test_the_page_adds_up():
    assert round(-0.511 - 1.204, 3) == -1.715 and round(-0.511 - 2.303, 3) == -2.814


def test_a_bracketed_name_is_not_the_next_numbers_name():
    assert prose._nearest_label("Kept: $-1.715$ (beam1+$w_1$) and ", []) is None
    assert prose._nearest_label("Kept: $w_1$ and ", []) is None
    assert prose._nearest_label('the weight $\\alpha_{12}$ (for "cat") is ', []) == "\\alpha_{12}"


def test_the_page_gives_no_finding():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
    r = check_document(DOC.replace("- 1.204 = -1.715", "- 1.204 = -1.725"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(3, "-1.725")], [f.describe() for f in r.findings]
