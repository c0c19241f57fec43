"""One weight times one value vector, written out (outside trial t163d, a lesson that applies attention weights by
hand): `0.22 * v3 = 0.22 * [1, 1, 0] = [0.22, 0.22, 0]`.  Such a line was judged as a sum of terms, with room for a
share of every printed digit's rounding (the exact 1s and 0s of the vector included), so a slip of one unit in the
second decimal passed.  A single product now has room only for its scalar's own rounding (claims/vector.py); a
weight of one decimal is a given, exact as written.  My own lines; each product is plain arithmetic."""

import pytest

from mha.check import check_document

LINES = """Each value vector scaled by its weight:

- 0.39 * v1 = 0.39 * [0, 1, 1] = [0, 0.39, 0.39]
- 0.22 * v3 = 0.22 * [1, 1, 0] = [0.22, 0.22, 0]
- 0.6 × [0.2, 0.5] = [0.12, 0.30]
- 0.333 * [3, 6] = [1.0, 2.0]
- 0.4011 * [1.5, 2.0] = [0.6017, 0.8022]
- 0.5 * [1.0, 2.0] = [0.5, 1.0]
"""


def test_the_products_are_right():
    assert [round(0.39 * x, 2) for x in (0, 1, 1)] == [0, 0.39, 0.39]
    assert [round(0.6 * x, 2) for x in (0.2, 0.5)] == [0.12, 0.3]
    assert [round(0.333 * x, 1) for x in (3, 6)] == [1.0, 2.0]
    assert [round(0.4011 * x, 4) for x in (1.5, 2.0)] == [0.6017, 0.8022]
    assert [0.5 * x for x in (1.0, 2.0)] == [0.5, 1.0]


def test_the_lines_hold():
    r = check_document(LINES, fmt="md")
    assert not r.errors and r.n_numbers >= 12, [f.describe() for f in r.findings]


@pytest.mark.parametrize("right, wrong, line", [
    ("[0, 0.39, 0.39]", "[0, 0.49, 0.39]", 3),
    ("[0.12, 0.30]", "[0.12, 0.31]", 5),
    ("[0.6017, 0.8022]", "[0.6017, 0.8032]", 7),
    # one decimal throughout: the old room (a share of every digit's rounding) let 1.1 for 1.0 pass
    ("[0.5, 1.0]", "[0.5, 1.1]", 8),
])
def test_a_slipped_product_is_found_on_its_line(right, wrong, line):
    r = check_document(LINES.replace(right, wrong), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
