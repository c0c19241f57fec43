"""Weights worked from one score that the author changed on the way, under scores that restate the page's Q Kᵀ:

    S' = S + M = [..] + [0, -∞, ..] = [[1, -∞, -∞], [1, 2, -∞], [0, 2, 4]]
    A = softmax(S') ≈ [.., [0.0351, 0.2595, 0.7054]]        (row 3: the softmax of 0, 2, 3)

The weights of row 3 are the softmax of [0, 2, 3], so "one slipped score" blamed the printed 4, which is right: it
is Q Kᵀ's entry, printed above and restated here (an outside trial's page, t237d).  A row of scores that is the
configuration's own, every finite entry, slipped nowhere: the weights are wrong, and the findings are on them
(`claims/softmax.py`, `_scores_of_the_trace`).  My own matrices."""

import numpy as np

from check_helpers import error_findings, line_of

M = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])


def _tex(A, f="{:g}"):
    return "\\begin{bmatrix}" + "\\\\".join("&".join(f.format(x) if np.isfinite(x) else "-\\infty" for x in r)
                                             for r in A) + "\\end{bmatrix}"


def _softmax(z):
    e = np.exp(z - z[np.isfinite(z)].max())
    return e / e.sum()


def _page(row3=None):
    S = M @ M.T
    masked = np.where(np.tril(np.ones((3, 3))) > 0, S, -np.inf)
    A = np.array([_softmax(r) for r in masked])
    if row3 is not None:
        A[2] = row3
    return "\n".join([
        "# Masking the future", "",
        f"$$Q = K = V = {_tex(M)}$$", "",
        f"$$QK^T = {_tex(S)}$$", "",
        f"$$QK^T/\\sqrt{{2}} \\approx {_tex(S / np.sqrt(2), '{:.4f}')}$$", "",
        "The mask is added to the unscaled scores:", "",
        f"$$S' = S + M = {_tex(S)} + {_tex(np.where(np.isfinite(masked), 0.0, -np.inf))} = {_tex(masked)}$$", "",
        f"$$A = \\text{{softmax}}(S') \\approx {_tex(A, '{:.4f}')}$$", ""])


def test_the_clean_page_holds():
    assert error_findings(_page()) == []


def test_weights_of_a_changed_score_are_found_on_the_weights():
    page = _page(row3=_softmax(np.array([0.0, 2.0, 3.0])))
    errs = error_findings(page)
    assert errs and {f.line for f in errs} == {line_of(page, "A = \\text{softmax}")}, [f.message for f in errs]
