"""A page that never names a head works a single one.  With widths that divide, the search may find that two heads
explain more printed numbers (the head-sized slices of another example's matrices), and then judge the page's own
single-head scores as one head's: false findings on a correct deep-dive in t230a, which says "head" nowhere.
Heads other than one are tried only where the page names heads: in words, code, a formula or a label
(infer/candidates.py `head_options`, readers/builder.py `HEAD_WORD`).  My own matrices."""

import numpy as np

X = np.array([[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 1.0, 2.0]])


def _m(name, m):
    rows = " \\\\ ".join(" & ".join(f"{v:g}" for v in r) for r in m)
    return f"$$ {name} = \\begin{{bmatrix}} {rows} \\end{{bmatrix}} $$"


def _page(words):
    head1 = X[:, :2] @ X[:, :2].T          # the scores of the first two columns alone
    return "\n".join([f"# {words}", "", "With $W_Q = W_K = W_V = I$ and no scaling:", "", _m("X", X), "",
                      "The scores of the first two columns:", "", _m("S", head1), ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_no_head_named_one_head_inferred():
    r = _report(_page("Scores by hand"))
    assert "H = 1" in " ".join(map(str, r.configuration.values())), r.configuration
    assert r.errors == []


def test_heads_named_two_heads_tried():
    r = _report(_page("Two heads by hand"))
    assert "H = 2" in " ".join(map(str, r.configuration.values())), r.configuration
    assert r.errors == [] and r.n_numbers >= 4
