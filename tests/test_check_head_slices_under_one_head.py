r"""A diagram of the shapes two heads would have (`K (3×4) ── K1 (3×2)   K2 (3×2)`, `→ O1 (3×2)`) on a page
whose numbers the configuration reads with one head, as an outside trial's lesson file draws it (t243b): the sizes of
head 1's and head 2's slices were held against the whole K, V and O, four false findings.  Under a one-head
reading a head's slice is not there to judge; the whole matrices' sizes on the same lines still are.  My own page
and numbers."""

import numpy as np
from check_helpers import error_places, line_of, numpy_rows, softmax

from mha.check import check_document

X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])


def _page(k_shape="3×4"):
    A = np.array([softmax(r) for r in X @ X.T / 2.0])
    return "\n".join([
        "## One head first", "", "X (three tokens, d_model = 4), with W_Q = W_K = W_V = I:", "",
        "```", numpy_rows(X, 1), "```", "", "The weights softmax(X Xᵀ / √4):", "", "```", numpy_rows(A), "```", "",
        "The output A X:", "", "```", numpy_rows(A @ X), "```", "",
        "With h = 2 heads the same matrices would split by columns:", "",
        "X (3×4)  ",
        " ├─ Q (3×4) ── Q1 = cols 0-1 (3×2)   Q2 = cols 2-3 (3×2)",
        f" ├─ K ({k_shape}) ── K1 (3×2)              K2 (3×2)",
        " └─ V (3×4) ── V1 (3×2)              V2 (3×2)", "",
        "head 1: softmax(Q1·K1ᵀ / √2) · V1  → O1 (3×2)",
        "head 2: softmax(Q2·K2ᵀ / √2) · V2  → O2 (3×2)", ""])


def test_head_slices_are_not_held_against_the_whole_matrices():
    report = check_document(_page(), fmt="md")
    assert report.configuration["H"] == "H = 1"
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_wrong_size_of_the_whole_matrix_on_the_same_line_is_found():
    page = _page("4×3")
    assert error_places(page) == [(line_of(page, "K (4×3)"), "4×3")]
