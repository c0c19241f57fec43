"""A page that numbers entries from 0 says so with a scalar as well as with an array: `α_{10} = 0.198` next to
`α_{11} = 0.401` names the second row's first and second weights, and a section read on its own (an exercise, a
second example) keeps the numbering of the page it comes from even when it prints no index 0 itself.  Read from 1,
α_{11} would be the first row's first weight, and a right value would be reported as a slip."""

import numpy as np

from mha.check import check_document
from mha.check.infer.prepare import Bases


def _softmax(s):
    e = np.exp(s - s.max())
    return e / e.sum()


Q = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
K = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
ROW1 = _softmax((Q @ K.T)[1] / np.sqrt(2))          # the second query's weights: [0.198, 0.401, 0.401]


def _bm(M):
    return " \\\\ ".join(" & ".join(f"{x:g}" for x in r) for r in M)


def page(a10: bool = True, a11: str | None = None) -> str:
    a11 = a11 or f"{ROW1[1]:.4f}"
    told = f", $\\alpha_{{10}} = {ROW1[0]:.4f}$" if a10 else ""
    return f"""# Three tokens

$$Q = \\begin{{bmatrix}} {_bm(Q)} \\end{{bmatrix}}, \\quad K = \\begin{{bmatrix}} {_bm(K)} \\end{{bmatrix}}$$

The scores are

$$QK^T = \\begin{{bmatrix}} {_bm(Q @ K.T)} \\end{{bmatrix}}$$

Row 1 (the second token) after scaling by $1/\\sqrt{{2}}$ and softmax: $\\alpha_{{11}} = {a11}${told}.
"""


def test_a_scalar_with_index_zero_makes_the_page_count_from_zero():
    assert abs(ROW1[1] - ROW1[0]) > 0.1               # read from 1, α_11 would be another weight
    r = check_document(page(), fmt="md")
    assert r.ok, [f.claim for f in r.errors]
    assert r.n_claims >= 2


def test_a_slip_in_the_zero_based_weight_is_found_on_its_line():
    r = check_document(page(a11="0.4111"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(9, "0.4111")]


def test_a_section_read_on_its_own_keeps_the_pages_numbering():
    """Without an index 0 of its own the section alone reads α_11 from 1 (a false slip); told that its page counts
    from 0 (as scoped.py and regions.py tell it), it reads the second row's second weight."""
    alone = check_document(page(a10=False), fmt="md", scopes=False)
    assert [f.printed for f in alone.errors] == [f"{ROW1[1]:.4f}"]
    kept = check_document(page(a10=False), fmt="md", scopes=False, like=Bases(head=1, row=0))
    assert kept.ok and kept.n_claims >= 2
    slip = check_document(page(a10=False, a11="0.4111"), fmt="md", scopes=False, like=Bases(head=1, row=0))
    assert [f.printed for f in slip.errors] == ["0.4111"]
