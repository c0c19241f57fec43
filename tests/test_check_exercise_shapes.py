"""An exercise at the end of a notebook asks for a new matrix: "Repeat the steps for input 2 and input 3, then create
a 4 x 3 matrix whose rows are the words" (t213c, a course notebook).  The size was taken for the input's shape, and
X, printed 3×4, was called wrong.  A size right after a verb of making (create, build, make, construct ...; 创建,
构造) is the size of what the reader is asked to build.  A shape stated of the input is still judged."""

from check_helpers import error_places, line_of

PAGE = r"""# Three words

The input, one row per word:

$$X = \begin{bmatrix} 1 & 0 & 1 & 0 \\ 0 & 2 & 0 & 2 \\ 1 & 1 & 1 & 1 \end{bmatrix}$$

With $W^Q = W^K = W^V = I$ and $d_k = 4$ the scaled scores and the weights are

$$\frac{QK^T}{\sqrt{4}} = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 4 & 2 \\ 1 & 2 & 2 \end{bmatrix}, \quad
A = \begin{bmatrix} 0.4223 & 0.1554 & 0.4223 \\ 0.0159 & 0.8668 & 0.1173 \\ 0.1554 & 0.4223 & 0.4223
\end{bmatrix}$$

LAST
"""


def test_a_matrix_to_be_made_is_no_shape_of_the_input():
    last = "Repeat the steps for input 2 and input 3. Then create a 4 x 3 matrix such that each row is a word."
    assert error_places(PAGE.replace("LAST", last)) == []


def test_a_wrong_shape_of_the_input_is_still_found():
    text = PAGE.replace("LAST", "So the input is a 4 x 3 matrix.")
    assert error_places(text) == [(line_of(text, "4 x 3"), "4×3")]
