"""A shape stated at the end of an equation of names (t222a, a notebook's LaTeX cell: `Q^{(b)} = X^{(b)}\\,W_Q,\\quad
... V^{(b)} = X^{(b)}\\,W_V \\;\\in\\;\\mathbb{R}^{6\\times3}`).  The shape was taken for the last name before ∈, the
product `X^{(b)}\\,W_V`, misread as W_V: "shape of W_V: printed 6×3; exact 3×3", a false finding.  The shape belongs
to the equation's subject, V (judge.py), and `X^{(b)} W_V` is read as the product (labels.py).  My own X; W = I.
(This page of mine checks clean before and after; the notebook's own case, in a cell whose weights are set in code,
is what showed the false finding, and the last test pins the product's reading, which was W_V before.)"""

from check_helpers import error_places

PAGE = """# One sample of the batch

$$
X^{{(b)}} = \\begin{{bmatrix}} 1 & 0 & 1 \\\\ 0 & 1 & 0 \\\\ 1 & 1 & 0 \\\\ 0 & 0 & 1 \\end{{bmatrix}},\\quad
W_Q = W_K = W_V = \\begin{{bmatrix}} 1 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 0 & 0 & 1 \\end{{bmatrix}}
$$

$$
Q^{{(b)}} = X^{{(b)}}\\,W_Q,\\quad
K^{{(b)}} = X^{{(b)}}\\,W_K,\\quad
V^{{(b)}} = X^{{(b)}}\\,W_V
\\;\\in\\;\\mathbb{{R}}^{{{shape}}}.
$$

The weights, scaled by $1/\\sqrt{{3}}$:

$$
A = \\begin{{bmatrix}} 0.4102 & 0.1293 & 0.2303 & 0.2303 \\\\ 0.1798 & 0.3202 & 0.3202 & 0.1798 \\\\
0.2303 & 0.2303 & 0.4102 & 0.1293 \\\\ 0.3202 & 0.1798 & 0.1798 & 0.3202 \\end{{bmatrix}}
$$
"""


def test_the_shape_is_the_subjects():
    assert error_places(PAGE.format(shape="4\\times3")) == []


def test_a_wrong_shape_of_the_subject_is_found():
    assert [p for _, p in error_places(PAGE.format(shape="4\\times4"))] != []


def test_a_batch_indexed_x_times_a_weight_is_the_product():
    from mha.check import labels as lb
    assert lb.parse_label("X^{(b)}W_Q").nodes == ("Q",)
