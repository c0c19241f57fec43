"""A hinge written with the letter of the softmax's running sum: `\\ell_1 = \\max(0, 0.5 - 0) = 0.5`.

Outside trial t191b (a note on a training loss beside a similarity example the checker took for attention): ℓ_1, the
penalty of feature 1, was judged as row 1's sum of exponentials and called wrong.  A line that takes max(0, ·) is a
hinge or a ReLU, no quantity of attention's trace (claims/target.py).
"""

from check_helpers import error_places

PAGE = r"""# One head, then a penalty

$X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}$, $W_Q = W_K = W_V = I$, scaled by $1/\sqrt{2}$.

$A = \begin{bmatrix} 0.401 & 0.198 & 0.401 \\ 0.198 & 0.401 & 0.401 \\ 0.248 & 0.248 & 0.503 \end{bmatrix}$

A variance penalty on each feature, with a threshold of 0.5: $\ell_1 = \max(0, 0.5 - 0) = 0.5$ and
$\ell_2 = \max(0, 0.5 - 0.05) = 0.45$.
"""



def test_the_hinge_is_no_row_sum():
    assert error_places(PAGE) == []


def test_the_example_beside_it_is_still_judged():
    assert error_places(PAGE.replace("0.248 & 0.503", "0.248 & 0.513")) == [(5, "0.513")]
