"""A softmax written with a long ASCII arrow, `softmax([3.75, 6.25, 4.38]) --> [0.07, 0.81, 0.12]` (or `==>`).

Last look t146a (an author's own error missed): `-->` was read as a minus and `->`, so the row was "labelled
softmax(...)-" and never compared with the softmax written on its own line.  `-->`, `==>`, `⟶` and `⟹` are the
arrow `→` (readers/tokens.py), as `->` and `=>` were.
"""

import pytest

from mha.check import check_document


def page(arrow: str, weights: str) -> str:
    return f"# Softmax of three scores\n\n```\nsoftmax([3.75, 6.25, 4.38]) {arrow} [{weights}]\n```\n"


@pytest.mark.parametrize("arrow", ["-->", "==>", "⟶", "->"])
def test_the_right_row_holds(arrow):
    r = check_document(page(arrow, "0.07, 0.81, 0.12"), fmt="md")
    assert not r.errors and r.n_numbers >= 3, ([f.describe() for f in r.findings], r.n_numbers)


@pytest.mark.parametrize("arrow", ["-->", "==>", "⟶", "->"])
def test_the_authors_rounding_slip_is_found(arrow):
    r = check_document(page(arrow, "0.06, 0.76, 0.18"), fmt="md")
    assert sorted(f.printed for f in r.errors) == ["0.06", "0.18", "0.76"], [f.describe() for f in r.findings]
