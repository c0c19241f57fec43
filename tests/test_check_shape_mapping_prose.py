"""The shapes of a product said in a parenthesis after the product's name (trial t172a, a Turkish post):
"We compute $S = Q K^T$ ($3 \\times 2$ ile $2 \\times 3 \\to 3 \\times 3$)".  The arrow's two sides were read as
arithmetic (2·3 "gives" 3·3: "printed 3, exact 2"), and with "with", "and", "times" or "@" for "ile" the first
factor's shape was taken for S's ("shape of S: printed 3×2").  A shape followed by an arrow and another shape, or
by a second factor and such an arrow, is a factor's, and no claim about S (the shape after the arrow is not read
as S's either: nothing in the parenthesis is judged).  My own small example."""

import pytest

from mha.check import check_document

PAGE = r"""# Scores

$$X = \begin{bmatrix} 2 & 0 \\ 1 & 1 \\ 0 & 1 \end{bmatrix}, \quad W_Q = W_K = W_V = I$$

We compute $S = Q K^T$ (SHAPES):

$$S = \begin{bmatrix} 4 & 2 & 0 \\ 2 & 2 & 1 \\ 0 & 1 & 1 \end{bmatrix}$$
"""


@pytest.mark.parametrize("shapes", [r"$3 \times 2$ ile $2 \times 3 \to 3 \times 3$",
                                    r"$3 \times 2$ with $2 \times 3 \to 3 \times 3$",
                                    r"$3 \times 2$ @ $2 \times 3 \to 3 \times 3$", "3×2 and 2×3 → 3×3"])
def test_the_factors_shapes_are_no_claim_about_the_product(shapes):
    r = check_document(PAGE.replace("SHAPES", shapes), fmt="md")
    assert not r.errors and r.n_numbers >= 9, ([f.describe() for f in r.findings], r.n_numbers)
