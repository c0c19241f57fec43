r"""Row breaks escaped once more for a static-site generator (outside trial t163b, a Thai chapter on multi-head
attention): a matrix spread over lines, each row ending in `\\\` before the line break.  The third backslash and
the break were read as a control space, so the rows ran together and every such matrix was dropped: not judged
and not listed as unchecked, and planted slips in them passed.  Three backslashes before a line break are a row
break now (readers/tokens.walk_latex).  My own page; the numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

PAGE = r"""# สองโทเค็น

$$
Q = \begin{bmatrix} 1 & 0 \\\ 0 & 2 \end{bmatrix},\quad K = \begin{bmatrix} 1 & 0 \\\ 1 & 1 \end{bmatrix},\quad
V = \begin{bmatrix} 2 & 0 \\\ 0 & 4 \end{bmatrix}
$$

$$
A = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{2}}\right) = \begin{bmatrix}
0.5000 & 0.5000 \\\
0.1956 & 0.8044
\end{bmatrix}
$$

$$
AV = \begin{bmatrix}
1.0000 & 2.0000 \\\
0.3911 & 3.2177
\end{bmatrix}
$$
"""


def test_the_numbers_are_numpy_s():
    Q, K, V = np.array([[1., 0], [0, 2]]), np.array([[1., 0], [1, 1]]), np.array([[2., 0], [0, 4]])
    s = Q @ K.T / np.sqrt(2)
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    assert np.round(a, 4).tolist() == [[0.5, 0.5], [0.1956, 0.8044]]
    assert np.round(a @ V, 4).tolist() == [[1.0, 2.0], [0.3911, 3.2177]]


def test_the_matrices_over_several_lines_are_judged():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 8, [f.describe() for f in r.findings]


def _line_of(text):
    return next(k for k, line in enumerate(PAGE.split("\n"), start=1) if text in line)


def test_a_slip_in_a_matrix_with_escaped_breaks_is_found():
    r = check_document(PAGE.replace("3.2177", "3.2277"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(_line_of("3.2177"), "3.2277")], \
        [f.describe() for f in r.findings]
    r = check_document(PAGE.replace("0.1956 & 0.8044", "0.1956 & 0.8144"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(_line_of("0.8044"), "0.8144")], \
        [f.describe() for f in r.findings]
