r"""A rounded coefficient multiplied by a larger number, on a line marked approximate (outside trial t164c, a
Portuguese problem list on graph networks): the normalised adjacency is given exactly, 1/√6, then shown rounded as
0,41, and later `h ≈ 0,50·2 + 0,41·4 = 2,63`.  The author multiplied the unrounded 1/√6 (1 + 4/√6 = 2.633); the
rounded factors give 2.64.  0.41 stands for anything in [0.405, 0.415], and times 4 that is ±0.02, four of the
result's half units: the result was called an arithmetic slip, twice.  On a line that says ≈, such a product is
taken as the rounding it is (claims/rounding.amplified_products); without the ≈, or beyond that room, it is still a
slip.  My own lines, in the same form."""

import math

import pytest

from mha.check import check_document

LINES = r"""The coefficient is $c = 1/\sqrt{6} \approx 0.41$.

Then $y_1 \approx 0.50 \cdot 2 + 0.41 \cdot 4 = 2.63$ and $y_3 \approx 0.41 \cdot 4 + 0.50 \cdot 6 = 4.63$.
"""


def test_the_results_are_the_unrounded_products():
    assert round(0.5 * 2 + 4 / math.sqrt(6), 2) == 2.63
    assert round(4 / math.sqrt(6) + 0.5 * 6, 2) == 4.63
    assert round(0.50 * 2 + 0.41 * 4, 2) == 2.64


def test_the_approximate_lines_hold():
    r = check_document(LINES, fmt="md")
    assert not r.errors and r.n_claims >= 2, [f.describe() for f in r.findings]


@pytest.mark.parametrize("text", [
    LINES.replace("= 2.63", "= 2.73"),                                  # beyond the factor's rounding
    LINES.replace(r"$y_1 \approx 0.50", "$y_1 = 0.50"),                 # nothing says the line is approximate
])
def test_a_slip_is_still_found(text):
    r = check_document(text, fmt="md")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.findings]
