"""Scores whose line ends by naming the softmax, the weights in a display below:

    \\(S=[0,\\ 1,\\ 4]\\), Softmax:

    $$
    \\alpha \\approx [0.0171,\\ 0.0466,\\ 0.9362]
    $$

The weights stood three lines below their scores with only a blank line and a `$$` between, and the word softmax
was on the scores' own line, not between them: the pair was "another example" and a wrong weight was not judged
(an outside trial's page, t237b, whose real 0.0067 for 0.0066 was missed).  A line that ends in "Softmax:" ties the
row on it to the weights after the blank lines and fences that follow (`claims/softmax.py`, `_said_after`).  My own
scores."""

import numpy as np

from check_helpers import error_findings, line_of

S = np.array([0.0, 1.0, 4.0])


def _page(weights=None):
    e = np.exp(S)
    w = weights or ",\\ ".join(f"{x:.4f}" for x in e / e.sum())
    z = np.array([[1.0, 1.0], [0.0, 1.0]]) / np.sqrt(2)          # Q Kᵀ / √2 of the first example
    A = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    first = "\\\\".join("&".join(f"{x:.4f}" for x in r) for r in A)
    return "\n".join(["# One large score", "", "#### Example 1 — two tokens", "",
                      "$$Q=\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix},\\quad K=\\begin{bmatrix}1&0\\\\1&1"
                      "\\end{bmatrix},\\quad V=\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}$$", "",
                      f"$$A=\\text{{softmax}}(QK^T/\\sqrt{{2}})\\approx\\begin{{bmatrix}}{first}\\end{{bmatrix}}$$", "",
                      "#### Example — one score far above the rest", "",
                      "\\(S=[0,\\ 1,\\ 4]\\), Softmax:", "", "$$", f"\\alpha \\approx [{w}]", "$$", "",
                      "Nearly all the weight goes to the third key.", ""])


def test_the_right_weights_hold():
    assert error_findings(_page()) == []


def test_weights_wrong_everywhere_are_found_on_their_line():
    # every weight a few units off (the page's own case: no entry right, so nothing else identifies the row)
    page = _page("0.0175,\\ 0.0470,\\ 0.9355")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "\\alpha"), x) for x in ("0.0175", "0.0470", "0.9355")], \
        [f.message for f in errs]
