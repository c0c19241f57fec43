"""A row named by listing its entries (t219d, Chinese notes on the Transformer): `[\\alpha_{11}, \\alpha_{12},
\\alpha_{13}] \\approx [0.401, 0.198, 0.401]`.  The list of names was no label, so the row was matched by its values
alone, and with one of them slipped it matched nothing there and was not checked.  A list of one row's entries,
named in order, is that row (labels.py).  My own X and identity weights, scaled by 1/√2 (here the values alone
identify the row too; the label is pinned by the first test)."""

import numpy as np

from check_helpers import error_places, line_of

PAGE = """# One row by hand

Take

$$
X = \\begin{{bmatrix}} 2 & 0 \\\\ 0 & 1 \\\\ 2 & 1 \\end{{bmatrix}},\\quad
W_Q = W_K = W_V = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 1 \\end{{bmatrix}}
$$

The first query's weights, after the scale and the softmax:

$$
[\\alpha_{{11}},\\alpha_{{12}},\\alpha_{{13}}]
\\approx [{w}]
$$
"""


def _row():
    x = np.array([[2.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    s = x[0] @ x.T / np.sqrt(2)
    e = np.exp(s - s.max())
    return e / e.sum()


def test_a_list_of_entries_names_their_row():
    from mha.check import labels as lb
    r = lb.parse_label("[\\alpha_{21}, \\alpha_{22}, \\alpha_{23}]")
    assert r is not None and r.nodes == ("A",) and r.raw_row == 2 and r.raw_col is None
    assert lb.parse_label("[e_{11},e_{12},e_{13}]").raw_row == 1
    assert lb.parse_label("(a_{11}, a_{13})") is None           # not the row in order: no label
    assert lb.parse_label("[1, 2]") is None


def test_the_named_row_holds():
    from mha.check import check_document
    text = PAGE.format(w=", ".join(f"{v:.3f}" for v in _row()))
    r = check_document(text, fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 3


def test_a_slip_in_the_named_row_is_found():
    w = [f"{v:.3f}" for v in _row()]
    slipped = w[1][:3] + w[1][4] + w[1][3]
    assert slipped != w[1]
    text = PAGE.format(w=", ".join([w[0], slipped, w[2]]))
    assert error_places(text) == [(line_of(text, slipped), slipped)]
