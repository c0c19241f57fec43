"""A page that works its example twice, without the scale and then in a section of its own with it (t276a 02): the
first walkthrough's weights and outputs were called "the scale left out", and the second's exponentials,
`softmax([0.707, 1.414, 0.707])` and under it `exp: [2.028, 4.112, 2.028]`, "a scale added".  Each reading in its
own section is the page's plan, not a slip; the same weights beside the scaled scores they ignore still are one.

My own page: three tokens of width two, Q = K = V = X."""

import numpy as np

from check_helpers import error_findings

X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
S = X @ X.T


def _softmax(M: np.ndarray) -> np.ndarray:
    e = np.exp(M - M.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _m(M: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.3f}" for x in r) + "]" for r in M) + "]"


def _v(r: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.3f}" for x in r) + "]"


def _first(scores: np.ndarray, heading: str, outputs_from: np.ndarray = S) -> str:
    A = _softmax(S)
    return f"""# Self-attention with Q = K = V = X

Three tokens of width two, and no projections, so Q = K = V = X:

    X = [[1, 0], [1, 1], [0, 1]]

{heading}

    S = {_m(scores)}

Then the softmax of each row:

    A = {_m(A)}

and the output A X:

    O = {_m(_softmax(outputs_from) @ X)}
"""


def _second() -> str:
    Ss = S / np.sqrt(2)
    e = np.exp(np.round(Ss[1], 3))
    return f"""
## The same with the scale

Each score divided by sqrt(2) = 1.414 first:

    {_m(Ss)}

Row 2: softmax({_v(Ss[1])})
    exp: {_v(e)}  sum = {e.sum():.3f}
    = {_v(_softmax(Ss)[1])}
"""


def test_each_scale_in_its_own_section_holds():
    page = _first(S, "The scores S = X X^T:") + _second()
    assert error_findings(page) == []


def test_weights_that_ignore_the_scaled_scores_beside_them_are_found():
    # the scaled scores, the unscaled weights, and outputs from the scaled weights: one section, one reading
    page = _first(S / np.sqrt(2), "The scores, divided by sqrt(2) = 1.414:", outputs_from=S / np.sqrt(2))
    found = error_findings(page)
    assert [f.line for f in found] == [13]
    assert "the scale left out" in found[0].cause
