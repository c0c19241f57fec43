r"""Weights set on one line, each its own way: `$W_Q = I$, $W_K = [..]$, $W_V = 2I$` (an outside trial's page,
t244b).  The `= I` made every weight named on the line the identity, W_V included, so the values and the output
never matched and a slip in the output went unfound.  Written as a symbol, the identity is only the weights set
equal to it, and `2I` is twice it.  My own page and numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

X = np.array([[1.0, 0.5], [0.0, 1.0]])
W_K = np.array([[0.5, 0.5], [0.0, 1.0]])


def _page(out=None):
    Q, K, V = X, X @ W_K, 2 * X
    A = np.array([softmax(r) for r in Q @ K.T / np.sqrt(2)])
    O = A @ V
    out = out or f"{O[0, 0]:.3f} & {O[0, 1]:.3f} \\\\ {O[1, 0]:.3f} & {O[1, 1]:.3f}"
    return "\n".join([
        "## Two tokens", "",
        r"$$X = \begin{bmatrix} 1 & 0.5 \\ 0 & 1 \end{bmatrix}$$", "",
        r"Weights: $W_Q = I$, $W_K = \begin{bmatrix} 0.5 & 0.5 \\ 0 & 1 \end{bmatrix}$, $W_V = 2I$.", "",
        r"$$V = X W_V = \begin{bmatrix} 2 & 1 \\ 0 & 2 \end{bmatrix}$$", "",
        r"$$A = \begin{bmatrix} " + f"{A[0, 0]:.3f} & {A[0, 1]:.3f} \\\\ {A[1, 0]:.3f} & {A[1, 1]:.3f}"
        + r" \end{bmatrix}$$", "",
        r"$$O = A V = \begin{bmatrix} " + out + r" \end{bmatrix}$$", ""])


def test_only_w_q_is_the_identity_and_the_page_holds():
    report = check_document(_page(), fmt="md")
    assert report.configuration["W_V"] == "W_V = 2·I (stated)"
    assert report.configuration["W_Q"] == "W_Q = I (stated)"
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_slip_in_the_output_is_found():
    page = _page("1.175 & 1.431 \\\\ 1.000 & 1.500")          # 1.413 with two digits swapped
    assert error_places(page) == [(line_of(page, "1.431"), "1.431")]
