"""A page exported with a space after every decimal point (`0. 707`, `e^{0. 707} \\approx 2. 028`): its worked numbers
are read as 0.707 and 2.028 (readers/spacedpoints.py).  Before, each was read as two whole numbers or not at all, and
the page's weights went unchecked without a word."""

import numpy as np

from mha.check import check_document
from mha.check.readers.spacedpoints import spaced_points

S = np.array([[1.0, 0.0], [1.0, 1.0]]) / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def _sp(x: float, d: int) -> str:
    """A number as the export writes it: a space after the point."""
    return f"{x:.{d}f}".replace(".", ". ")


def page(slip: bool = False) -> str:
    a = A.round(3)
    if slip:
        a[0, 1] += 0.010
    return f"""# Two tokens by hand

Queries and keys:

$$
Q = \\begin{{bmatrix}} 1 & 0 \\\\ 1 & 1 \\end{{bmatrix}}, \\quad K = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 1 \\end{{bmatrix}}
$$

The scores $QK^T$ are [[1, 0], [1, 1]]. Scale them by $\\sqrt{{2}} \\approx {_sp(np.sqrt(2), 3)}$:

$$
\\frac{{1}}{{{_sp(np.sqrt(2), 3)}}} \\approx {_sp(S[0, 0], 3)}
$$

$$
S = \\begin{{bmatrix}} {_sp(S[0, 0], 3)} & 0 \\\\ {_sp(S[1, 0], 3)} & {_sp(S[1, 1], 3)} \\end{{bmatrix}}
$$

Softmax of the first row: $e^{{{_sp(S[0, 0], 3)}}} \\approx {_sp(np.exp(S[0, 0]), 3)}$ and
$e^0 = 1$, so

$$
A = \\begin{{bmatrix}} {_sp(a[0, 0], 3)} & {_sp(a[0, 1], 3)} \\\\ {_sp(a[1, 0], 3)} & {_sp(a[1, 1], 3)} \\end{{bmatrix}}
$$
"""


def test_a_page_of_spaced_points_is_read_and_holds():
    r = check_document(page(), fmt="md")
    assert r.ok, [f.describe() for f in r.errors]
    assert r.n_numbers >= 8


def test_a_slip_among_spaced_points_is_found_on_its_line():
    r = check_document(page(slip=True), fmt="md")
    assert [f.printed for f in r.errors] == [_sp(A[0, 1].round(3) + 0.010, 3).replace(". ", ".")]


def test_lines_keep_their_length_and_prose_lists_are_left_alone():
    text = "1. 2 heads are used\n" + "\n".join(f"$x = 0. {k}5$" for k in range(1, 7))
    out = spaced_points(text, "md")
    assert out.splitlines()[0] == "1. 2 heads are used"
    assert out.splitlines()[1] == "$x = 0.15 $"
    assert [len(x) for x in out.splitlines()] == [len(x) for x in text.splitlines()]


def test_a_page_that_writes_points_as_usual_is_left_alone():
    text = "$a = 0.5$, $b = 0.25$\n" * 6 + "$c = 1. 5$ (a typo)\n"
    assert spaced_points(text, "md") == text
