r"""A weight written as a number times a matrix: `W_Q = \frac{1}{\sqrt{2}}\begin{bmatrix} 1 & 1 \\ 1 & -1
\end{bmatrix}`.

The factor stood between the name and the matrix, so the matrix was unnamed, the weight "assumed I", and nothing
after it matched (0 numbers checked).  An earlier trial (t13x) met `W_O` written as ½ times an integer matrix.
A number (½, 1/√2, 0.5) right before the last matrix of a chain scales it under the chain's name
(readers/factor.py); where the chain goes on (`S = ½ [M] ≈ [M']`) the later array is still the product.
"""

import pytest

from mha.check import check_document
from mha.check.readers.factor import leading_factor

PAGE = r"""# A rotated query projection

$$X = \begin{bmatrix} 1 & 0 \\ 0 & 2 \\ 1 & 1 \end{bmatrix}, \qquad W_Q = \frac{1}{\sqrt{2}}\begin{bmatrix} 1 & 1 \\ 1 & -1 \end{bmatrix}, \qquad W_K = W_V = I$$

$$Q = X W_Q = \begin{bmatrix} 0.7071 & 0.7071 \\ 1.4142 & -1.4142 \\ 1.4142 & 0 \end{bmatrix}$$

$$Q K^T = \begin{bmatrix} 0.7071 & 1.4142 & 1.4142 \\ 1.4142 & -2.8284 & 0 \\ 1.4142 & 0 & 1.4142 \end{bmatrix}$$
"""


def test_the_scaled_weight_is_read_and_the_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and not r.not_checked, [f.describe() for f in r.findings] + \
        [n.describe() for n in r.not_checked]
    assert "W_Q printed at line 3" in r.configuration.get("W_Q", ""), r.configuration
    assert r.n_numbers >= 15, r.n_numbers


def test_a_slip_after_it_is_found():
    r = check_document(PAGE.replace("1.4142 & -2.8284", "1.4142 & -2.8248"), fmt="md")
    assert [f.line for f in r.errors] == [7], [f.describe() for f in r.findings]


@pytest.mark.parametrize("text, value", [(r"\frac{1}{2}", 0.5), (r"\frac{1}{\sqrt{2}}", 2 ** -0.5), (r"\tfrac12", 0.5),
                                         ("0.5", 0.5), ("1/√4", 0.5), (r"\frac{3}{4}", 0.75), ("W_Q", None),
                                         (r"\frac{QK^T}{\sqrt{d}}", None)])
def test_leading_factor(text, value):
    got = leading_factor(text)
    assert (got is None) if value is None else abs(got - value) < 1e-12, got
