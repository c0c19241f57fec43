"""Weights written as bare results under their exponentials and the exponentials' total, each rounded to four
decimals on the way:

    e^{0-0.7071} = e^{-0.7071} ≈ 0.4931          (the scaled scores [0, 0.7071]; max = 0.7071)
    e^{0} = 1
    Σ ≈ 1.4931
    α_{10} ≈ 0.3303

The exact weights of softmax([0, 0.7071]) are 0.330238 and 0.669762; an author who divides the printed 0.4931 by
the printed 1.4931 writes 0.3303 and 0.6697, which are the page's own arithmetic, one unit off the exact rounding.
They were two errors on the bare weights and two more on the matrix that restates them (an outside trial's page,
t237b and t237d).  Such a weight is now a note: "follows from the rounded exponentials and their sum printed before
it" (`claims/rounding.py`, `from_printed_exponentials` for a matrix's cells, `printed_quotient` for a bare result).
A weight that is off by more, or that the printed numbers do not give, stays an error.  My own page and numbers."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document

Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 0.0], [1.0, 1.0]])


def _page(a10="0.3303", a11="0.6697", row2=("0.3303", "0.6697")):
    z = Q @ K.T / np.sqrt(2)            # [[0.7071, 0.7071], [0, 0.7071]]
    A = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    return "\n".join([
        "# Two tokens, by hand", "",
        "$$Q=\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix},\\quad K=\\begin{bmatrix}1&0\\\\1&1\\end{bmatrix},\\quad "
        "V=\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}$$", "",
        "Scaled scores: $S = QK^T/\\sqrt{2} = \\begin{bmatrix}0.7071&0.7071\\\\0&0.7071\\end{bmatrix}$.", "",
        f"Row 0 has two equal scores, so $\\alpha_{{00}} = \\alpha_{{01}} = {A[0, 0]:.4f}$.", "",
        "Row 1, subtracting its maximum 0.7071 first:", "",
        "$$", "\\begin{aligned}",
        "e^{0-0.7071}&=e^{-0.7071}\\approx 0.4931\\\\",
        "e^{0}&=1\\\\",
        "\\sum &\\approx 1.4931\\\\",
        f"\\alpha_{{10}}&\\approx {a10}\\\\",
        f"\\alpha_{{11}}&\\approx {a11}",
        "\\end{aligned}", "$$", "",
        f"$$A\\approx\\begin{{bmatrix}}{A[0, 0]:.4f}&{A[0, 1]:.4f}\\\\{row2[0]}&{row2[1]}\\end{{bmatrix}}$$", ""])


def test_weights_worked_from_the_printed_exponentials_are_notes():
    page = _page()
    r = check_document(page, fmt="md")
    assert r.ok, [f.message for f in r.errors]
    notes = [f for f in r.notes if "exponentials and their sum printed before it" in f.cause]
    assert {f.line for f in notes} == {line_of(page, "alpha_{10}"), line_of(page, "alpha_{11}"),
                                       line_of(page, "A\\approx")}, [f.message for f in r.notes]


def test_a_weight_the_printed_numbers_do_not_give_is_still_an_error():
    page = _page(a10="0.3403")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "alpha_{10}"), "0.3403")], \
        [f.message for f in errs]
