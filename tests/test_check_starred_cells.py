"""Table cells that carry a highlight mark (t-set F, an HTML lesson that stars each row's largest score: `4.601 ⭐`).
The mark made the cell unreadable, so the starred column was dropped and the table read one column short, matching
nothing.  Symbols and emoji at either end of a cell are read past (readers/tables.py `_strip_marks`); a slip in a
starred cell is then found like any other.  My own numbers: q and k below, scaled by 1/√3."""

import numpy as np

from check_helpers import error_places, line_of

PAGE = """# Three words, scored

Queries and keys are given:

q_1 = [1, 0, 1], q_2 = [0, 2, 0], q_3 = [1, 1, 0]

k_1 = [1, 1, 0], k_2 = [0, 1, 1], k_3 = [2, 0, 1]

Scaled scores (the largest of each row starred):

| query \\\\ key | 1 | 2 | 3 |
|---|---|---|---|
| 1 | 0.577 | 0.577 | 1.732 ⭐ |
| 2 | 1.155 ⭐ | 1.155 ⭐ | 0.000 |
| 3 | 1.155 ⭐ | 0.577 | 1.155 ⭐ |

Attention weights:

| query \\\\ key | 1 | 2 | 3 |
|---|---|---|---|
| 1 | 0.193 | 0.193 | {w13} ★ |
| 2 | 0.432 ✅ | 0.432 | 0.136 |
| 3 | 0.390 | 0.219 | 0.390 |
"""


def _w13():
    s = np.array([1.0, 1.0, 3.0]) / np.sqrt(3)
    e = np.exp(s - s.max())
    return f"{(e / e.sum())[2]:.3f}"


def test_starred_cells_are_read():
    from mha.check import check_document
    r = check_document(PAGE.format(w13=_w13()), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 18


def test_a_slip_in_a_starred_cell_is_found():
    text = PAGE.format(w13="0.631")
    assert _w13() == "0.613" and error_places(text) == [(line_of(text, "0.631"), "0.631")]
