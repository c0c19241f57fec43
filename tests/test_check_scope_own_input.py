"""A long tutorial whose last section starts a new example with an X of its own (t219d, Chinese notes on the
Transformer: section 10 says Q = K = V = X and prints X, X Xᵀ and the scaled scores).  Four sections before it held
numbers nothing checked, so the four sections read again on their own were used up before it, and the document's
configuration (the first example's W_K) judged its scaled scores: four notes on rounding, all false.  A section that
prints an input of its own is read first (scoped.py `_prints_input`), and when its configuration's givens all lie
inside it, its notes replace the document's there (`_own_example`).  Written as a test, the page showed a false
error as well: `QK^T` in the new example was judged as the product of the first example's Q and K; a name bound
before X is given anew is no factor of a product after it (claims/namedproduct.py).  My own numbers (NumPy, 1/√2)."""

from mha.check import check_document

from check_helpers import error_places, line_of

FILLER = """
## {n}. An aside

A vector from another part of the model, for the record:

$$
h = [{a}, 0.77, -0.12]
$$
"""

PAGE = """# Attention, worked twice

## 1. The main example

$$
X = \\begin{{bmatrix}} 1 & 2 \\\\ 0 & 1 \\\\ 2 & 1 \\end{{bmatrix}},\\quad
W_Q = \\begin{{bmatrix}} 1 & 0 \\\\ 1 & 1 \\end{{bmatrix}},\\quad
W_K = \\begin{{bmatrix}} 0 & 1 \\\\ 1 & 0 \\end{{bmatrix}},\\quad
W_V = \\begin{{bmatrix}} 2 & 0 \\\\ 0 & 1 \\end{{bmatrix}}
$$

$$
Q = \\begin{{bmatrix}} 3 & 2 \\\\ 1 & 1 \\\\ 3 & 1 \\end{{bmatrix}},\\quad
K = \\begin{{bmatrix}} 2 & 1 \\\\ 1 & 0 \\\\ 1 & 2 \\end{{bmatrix}},\\quad
V = \\begin{{bmatrix}} 2 & 2 \\\\ 0 & 1 \\\\ 4 & 1 \\end{{bmatrix}}
$$

$$
\\frac{{QK^T}}{{\\sqrt{{2}}}} = \\begin{{bmatrix}} 5.6569 & 2.1213 & 4.9497 \\\\ 2.1213 & 0.7071 & 2.1213 \\\\
4.9497 & 2.1213 & 3.5355 \\end{{bmatrix}}
$$

$$
A = \\begin{{bmatrix}} 0.6569 & 0.0191 & 0.3239 \\\\ 0.4458 & 0.1084 & 0.4458 \\\\
0.7679 & 0.0454 & 0.1867 \\end{{bmatrix}},\\quad
AV = \\begin{{bmatrix}} 2.6095 & 1.6569 \\\\ 2.6748 & 1.4458 \\\\ 2.2826 & 1.7679 \\end{{bmatrix}}
$$
{fillers}
## 6. A second example you can do by hand

Now take Q = K = V = X with

$$
X = \\begin{{bmatrix}} 2 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{{bmatrix}}
$$

$$
QK^T = \\begin{{bmatrix}} 4 & 0 & 2 \\\\ 0 & 1 & 1 \\\\ 2 & 1 & 2 \\end{{bmatrix}}
$$

$$
\\frac{{QK^T}}{{\\sqrt{{2}}}} = \\begin{{bmatrix}} 2.828 & 0 & 1.414 \\\\ 0 & 0.707 & 0.707 \\\\
1.414 & 0.707 & {s33} \\end{{bmatrix}}
$$

The first row of weights is $[0.768, 0.045, 0.187]$.
"""


def _page(s33="1.414"):
    fillers = "".join(FILLER.format(n=n, a=f"0.{n}1") for n in range(2, 6))
    return PAGE.format(fillers=fillers, s33=s33)


def test_the_second_example_gets_no_notes_from_the_first():
    r = check_document(_page(), fmt="md")
    second = line_of(_page(), "A second example")
    assert [f for f in r.findings if f.line > second] == []
    assert [f for f in r.findings if f.severity == "error"] == []


def test_a_slip_in_the_second_example_is_found():
    text = _page(s33="1.441")
    assert error_places(text) == [(line_of(text, "1.441"), "1.441")]
