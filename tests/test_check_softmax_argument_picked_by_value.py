r"""A softmax written with its argument, `A_{0,:} = softmax([1.0, 0, 0.5]) ≈ [...]`, where the argument is the
page's own scaled row 0 carried on from a wrong entry of Q Kᵀ, and happens to share a 1 and a 0 with another row
of the exact Q Kᵀ (an outside trial's page, t244c).  The argument was held against that other row and its third
entry reported wrong.  A name ("softmax input": the scores) says which matrix, not which row; a row picked by value
with only a 0 and a 1 agreeing, not the row the line names, is not identified.  My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

Q = np.array([[0, 1, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]])
K = np.array([[1, 0, 1, 1], [1, 0, 1, 0], [1, 1, 0, 0]])


def _tex(M):
    return r" \\ ".join(" & ".join(f"{x:g}" for x in row) for row in M)


def _page():
    S = Q @ K.T
    assert S.tolist() == [[2, 1, 1], [2, 1, 1], [1, 0, 0]]
    page_S = S.astype(float)
    page_S[0, 1] = 0                                    # the page's own slip in Q Kᵀ
    arg = page_S[0] / 2
    w = softmax(arg)
    return "\n".join([
        "## Three tokens, d_k = 4", "",
        rf"$$Q = \begin{{pmatrix}} {_tex(Q)} \end{{pmatrix}}, \quad K = \begin{{pmatrix}} {_tex(K)} \end{{pmatrix}}$$",
        "", rf"$$Q K^\top = \begin{{pmatrix}} {_tex(page_S)} \end{{pmatrix}}$$", "",
        r"Scale by $\sqrt{4} = 2$:", "",
        rf"$$\frac{{Q K^\top}}{{2}} = \begin{{pmatrix}} {_tex(page_S / 2)} \end{{pmatrix}}$$", "",
        rf"$$A_{{0,:}} = \text{{softmax}}([1.0,\, 0,\, 0.5]) \approx [{w[0]:.2f},\; {w[1]:.2f},\; {w[2]:.2f}]$$", ""])


def test_only_the_pages_own_slip_is_reported():
    page = _page()
    assert error_places(page) == [(line_of(page, "Q K^\\top = "), "0")]


def test_the_argument_line_has_no_finding():
    page = _page()
    report = check_document(page, fmt="md")
    assert not [f for f in report.findings if f.severity == "error" and f.line == line_of(page, "A_{0,:}")]
