"""A wrong weight whose printed digits happen to match the other scale's value (trial t174a, a worksheet): at
three decimals the reading "without dividing by √d_k" (or with it) lies within a unit of the right value, so
naming it as the cause is a coincidence.  The finding stays; the cause is given only when the two readings differ
by a printed unit.  My own X (W = I, scaled by 1/√3); every number is NumPy's."""

import numpy as np

from mha.check import check_document

X = np.array([[0.09, 0.22, 0.22], [0.07, 0.25, 0.2], [0.2, 0.25, 0.13]])


def _softmax(s):
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _tex(name, m, d):
    return f"$${name} = \\begin{{bmatrix}} " + r" \\ ".join(" & ".join(f"{x:.{d}f}" for x in r) for r in m) + \
        r" \end{bmatrix}$$"


def test_a_slip_near_the_other_scale_is_found_without_that_cause():
    s = X @ X.T
    a = _softmax(s / np.sqrt(3))
    printed = np.round(a, 3)
    printed[2, 0] = np.round(_softmax(s)[2, 0], 3)        # 0.331 where 0.332 is right: the unscaled value's digits
    text = "\n".join(["# Three tokens, W = I", "", _tex("X", X, 2), "", "Scores over √3:", "",
                      _tex("S", s / np.sqrt(3), 4), "", "Weights:", "", _tex("A", printed, 3), ""])
    r = check_document(text, fmt="md")
    wrong = [f for f in r.errors if f.printed == f"{printed[2, 0]:.3f}"]
    assert wrong, [f.describe() for f in r.findings]
    assert all("scale" not in (f.cause or "") for f in wrong), [f.describe() for f in wrong]
