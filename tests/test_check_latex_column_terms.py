"""A weighted sum of value columns written in LaTeX, `0.266 \\begin{bmatrix} 1.26 \\\\ 0.65 \\end{bmatrix} + ... =
\\begin{bmatrix} 0.880 \\\\ 0.739 \\end{bmatrix}` (trial t171c, a Turkish series that works each head's output so):
one-column and one-row matrices were no terms of a sum, so the result was never added up and a slip in it never
found.  They are vectors now, and a result written as a column is compared entry by entry.  My own weights and
values; the results are NumPy's, at three decimals."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.objects import ExprPart
from mha.check.readers import read_document

W = [0.266, 0.412, 0.322]
V = np.array([[1.26, 0.65], [0.62, 1.10], [0.90, 0.35]])


def _page(column=True, slip=None):
    o = np.array(W) @ V
    sep = r" \\ " if column else " & "
    mat = lambda v, d: r"\begin{bmatrix} " + sep.join(f"{x:.{d}f}" for x in v) + r" \end{bmatrix}"
    terms = " + ".join(f"{w} {mat(v, 2)}" for w, v in zip(W, V))
    text = f"# One output by hand\n\n$$\n{terms} = {mat(o, 3)}\n$$\n"
    return text.replace(*slip) if slip else text, o


@pytest.mark.parametrize("column", [True, False])
def test_the_sum_of_vector_terms_is_judged(column):
    text, o = _page(column)
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers == 2, ([f.describe() for f in r.findings], r.n_numbers)
    wrong = f"{o[1] + 0.01:.3f}"
    r = check_document(text.replace(f"{o[1]:.3f}", wrong), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(4, wrong)], [f.describe() for f in r.findings]


def test_a_square_matrix_is_no_vector_term():
    text = "# Not a sum of vectors\n\n$$\n0.5 \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix} = " \
           "\\begin{bmatrix} 0.5 & 1 \\\\ 1.5 & 2 \\end{bmatrix}\n$$\n"
    doc = read_document(text, "md")
    assert doc.chains and not any(isinstance(p, ExprPart) for c in doc.chains for p in c.parts), \
        [c.text for c in doc.chains]


def test_dot_products_of_tuples_written_out_are_judged():
    """`q · k_2 = (1,0,1,0)\\cdot(0,1,0.5,0.5) = 0.5`, one score a line (trial t173c, graph-attention slides): the
    tuples were no vectors, so the scores went unjudged.  Tuples that may be shapes (`(3, 4) × (4, 2)`: fewer than
    four whole numbers, none 0) stay unread."""
    q, keys = (1, 0, 1, 0), [(1, 0, 0.5, 0.5), (0, 1, 0.5, 0.5), (0.25, 0, 1, 0)]
    lines = [f"$$\nq \\cdot k_{j + 1} = ({','.join(f'{x:g}' for x in q)})\\cdot({','.join(f'{x:g}' for x in k)}) = "
             f"{np.dot(q, k):g}\n$$\n" for j, k in enumerate(keys)]
    text = "# One query against three keys\n\n" + "\n".join(lines) + "\nShapes: $(3, 4) \\times (4, 2) = (3, 2)$.\n"
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 3, ([f.describe() for f in r.findings], r.n_numbers)
    r = check_document(text.replace(f"= {np.dot(q, keys[1]):g}\n", "= 0.6\n"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.6"], [f.describe() for f in r.findings]
