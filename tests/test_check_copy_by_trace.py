r"""The scaled scores printed, then printed again with the causal mask added: two copies of one matrix.

Outside trial t138e (a slip planted in the first copy): the slip was found, and the correct entry of the second
copy was reported too ("nothing printed after them tells which copy is right").  The configuration's own value of
the entry, computed from the given Q and K, tells: the copy that holds it is right (claims/printchain.py).
"""

import pytest

from mha.check import check_document

PAGE = r"""# Causal attention, three tokens

$$Q = \begin{bmatrix}1&0\\1&1\\0&2\end{bmatrix},\quad K = \begin{bmatrix}0&1\\1&0\\1&1\end{bmatrix},\quad
V = \begin{bmatrix}1&2\\3&0\\0&1\end{bmatrix}$$

$$\frac{QK^T}{\sqrt{2}} = \begin{bmatrix}0.000&0.707&0.707\\0.707&0.707&1.414\\1.414&0.000&1.414\end{bmatrix}$$

$$\frac{QK^T}{\sqrt{2}} + M = \begin{bmatrix}0.000&-\infty&-\infty\\0.707&0.707&-\infty\\1.414&0.000&1.414\end{bmatrix}$$

$$A = \begin{bmatrix}1&0&0\\0.5&0.5&0\\0.446&0.108&0.446\end{bmatrix},\qquad
O = AV = \begin{bmatrix}1&2\\2&1\\0.771&1.337\end{bmatrix}$$
"""


def test_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("good, bad, line", [
    (r"0.707&0.707&1.414\\1.414&0.000&1.414\end{bmatrix}$$" + "\n\n$$\\frac{QK^T}{\\sqrt{2}} + M",
     r"0.707&0.709&1.414\\1.414&0.000&1.414\end{bmatrix}$$" + "\n\n$$\\frac{QK^T}{\\sqrt{2}} + M", 6),
    (r"0.707&0.707&-\infty", r"0.707&0.709&-\infty", 8),
])
def test_only_the_slipped_copy_is_found(good, bad, line):
    assert good in PAGE
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]
