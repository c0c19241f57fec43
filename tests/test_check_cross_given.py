"""Cross-attention worked from Q, K and V given directly (outside trial t162c, course notes): two text queries
against three image keys.  Objects under a heading about cross-attention were set aside as something the inferred
self-attention configuration does not model; but a configuration that starts from Q, K and V as printed models
queries and keys of different lengths as they are, so they are judged now (claims/array._from_givens).  My own
page; the numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

PAGE = r"""# Notes

## Cross-attention between text and image

Two text tokens ask three image patches, $d_k = 2$:

$$
Q = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}, \quad
K = \begin{pmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{pmatrix}, \quad
V = \begin{pmatrix} 1 & 2 \\ 3 & 0 \\ 0 & 1 \end{pmatrix}
$$

$$
\frac{QK^\top}{\sqrt{2}} = \begin{pmatrix} 0.707 & 0 & 0.707 \\ 0 & 0.707 & 0.707 \end{pmatrix}
$$

$$
A = \begin{pmatrix} 0.401 & 0.198 & 0.401 \\ 0.198 & 0.401 & 0.401 \end{pmatrix}, \quad
O = AV = \begin{pmatrix} 0.994 & 1.203 \\ 1.401 & 0.797 \end{pmatrix}
$$
"""


def test_the_numbers_are_numpy_s():
    Q = np.eye(2)
    K = np.array([[1., 0], [0, 1], [1, 1]])
    V = np.array([[1., 2], [3, 0], [0, 1]])
    s = Q @ K.T / np.sqrt(2)
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    assert np.round(a, 3).tolist() == [[0.401, 0.198, 0.401], [0.198, 0.401, 0.401]]
    assert np.round(a @ V, 3).tolist() == [[0.994, 1.203], [1.401, 0.797]]


def test_the_section_checks_clean():
    r = check_document(PAGE, fmt="md")
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert not r.errors and not r.not_checked and r.n_numbers >= 16, \
        ([f.describe() for f in r.findings], [(n.line, n.reason) for n in r.not_checked])


def test_a_slipped_output_under_the_cross_attention_heading_is_found():
    r = check_document(PAGE.replace("1.203", "1.230"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(19, "1.230")], [f.describe() for f in r.findings]
