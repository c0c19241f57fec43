r"""Weights written as a tuple of quotients equal to a tuple of numbers, in TeX parentheses:
`$(1.822/3.644,\; 1/3.644,\; 0.822/3.644) = (0.500,\; 0.274,\; 0.226)$`.

Outside trial t137b: the left tuple was read as a label, its right side as an unlabelled row that (one weight
worked from rounded values) matched nothing, and a slip planted in it was not found.  A parenthesised tuple of
worked cells beside a relation is a row whose cells keep their arithmetic (readers/tuples.py), judged against the
row it equals, as the same thing in square brackets was.
"""

import pytest

from mha.check import check_document

PAGE = r"""# One row of softmax by hand

Scores of the first query: $s = (0.6, 0, -0.2)$.

Exponentials: $e^{0.6} = 1.822$, $e^{0} = 1$, $e^{-0.2} = 0.819$.  Sum = $3.641$.

Weights: $(1.822/3.641,\; 1/3.641,\; 0.819/3.641) = (0.500,\; 0.275,\; 0.225)$.
"""


def test_the_worked_tuple_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("good, bad", [("0.275,\\; 0.225)", "0.275,\\; 0.252)"), ("(0.500,", "(0.560,")])
def test_a_slip_in_the_tuple_is_found(good, bad):
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert [f.line for f in r.errors] == [7], [f.describe() for f in r.findings]


def test_plain_pairs_in_parentheses_stay_unread():
    from mha.check.readers import read_document
    doc = read_document("Entry $(2, 3)$ of the matrix, and $(i + 1, j)$.\n", "md")
    assert not doc.arrays, doc.arrays
