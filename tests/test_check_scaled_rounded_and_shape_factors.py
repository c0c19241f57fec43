"""Two false findings of t224d (an English end-to-end walkthrough with a backward pass):

* The raw scores are printed to three decimals in a table whose row labels carry the query vectors
  (`q₄=[.20,.28]:  0.250  0.076  0.032  0.090`), a table the readers cannot take apart; the scaled scores are then
  those rounded numbers over √2, `0.023` for 0.032 / 1.414 = 0.0226 (exact 0.0223).  Called a slip; it follows
  from a rounding the page printed, so it is a rounding note (claims/rounding.py `_scaled_from_rounded_of`).  A slip
  of two units in the last digit is still found.
* `∂L/∂Wv = Xᵀ @ ∂L/∂V (2×4 @ 4×2 = 2×2)`: the first shape of a product of shapes written out with its result was
  read as V's shape (readers/prose.py `_OPERAND`).

My own vectors and scores, computed below with plain NumPy (not mha)."""

import numpy as np

from check_helpers import error_places, line_of

X = np.array([[0.77, 0.38], [0.46, 0.17], [0.64, 0.30]])


def _page(s_row3, shape_line=True):
    S_raw = X @ X.T
    raw = "\n".join(f"q{i + 1}=[{X[i, 0]:.2f},{X[i, 1]:.2f}]:  " + "  ".join(f"{v:.3f}" for v in r)
                    for i, r in enumerate(S_raw))
    scaled = np.round(np.round(S_raw, 3) / np.sqrt(2), 3)
    rows = [", ".join(f"{v:.3f}" for v in r) for r in scaled]
    rows[2] = s_row3 or rows[2]
    out = ["# Scores by hand", "", "X = [[0.77, 0.38], [0.46, 0.17], [0.64, 0.30]]", "", "Q = K = X.", "",
           "The raw scores, each query against each key:", "", "```", raw, "```", "",
           "Scaled by √2 = 1.414:", ""]
    out += [f"s_{i + 1} = [{r}]" for i, r in enumerate(rows)]
    if shape_line:
        out += ["", "### The gradient of W_V", "", "**∂L/∂W_V = Xᵀ @ ∂L/∂V (2×3 @ 3×2 = 2×2):**"]
    return "\n".join(out) + "\n"


def test_the_rounding_is_the_pages():
    """Row 3 of the scaled scores from the rounded raw ones differs from the exact in the last digit."""
    S = X @ X.T
    from_rounded = np.round(np.round(S, 3) / np.sqrt(2), 3)
    exact = np.round(S / np.sqrt(2), 3)
    assert (from_rounded != exact).sum() == 1 and from_rounded[2, 2] == 0.354 and exact[2, 2] == 0.353


def test_scaled_scores_from_rounded_scores_check_clean():
    assert error_places(_page(None)) == []


def test_a_slip_of_two_units_is_still_found():
    S = np.round(np.round(X @ X.T, 3) / np.sqrt(2), 3)
    row = [f"{v:.3f}" for v in S[2]]
    row[1] = f"{S[2, 1] + 0.003:.3f}"
    text = _page(", ".join(row))
    assert error_places(text) == [(line_of(text, "s_3 ="), row[1])]


def test_a_shape_product_names_no_operand():
    from mha.check.readers import read_document
    doc = read_document(_page(None), "md")
    assert not any(getattr(p, "dims", None) == [2, 3] for c in doc.chains for p in c.parts)
