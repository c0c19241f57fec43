"""Shapes said of a second example in the first one's section, the first being the page's configuration:

    Now the queries come from one sequence and the keys from another:
    $$Q_{\\text{text}} = [..] (2×2), \\quad K_{\\text{image}} = [..] (3×2), \\quad V_{\\text{image}} = [..] (3×1)$$
    Compute $Q_{\\text{text}} K_{\\text{image}}^\\top$ (shape: 2 x 3) ... V had shape (3 x 1), so the output has
    shape (2 x 1).

`Q_{text} K_{image}^\\top` was read as Q transposed, and every shape was held against the first example's (three
errors on right shapes, an outside trial's page, t239a).  The named product is Q Kᵀ now (`labels.py`), and a shape
that the matrices printed above it in its section give, not the configuration, is that example's
(`claims/shapeelsewhere.py`).  My own matrices; this page holds the behaviour, while the trial's page, whose
layout this one does not reproduce, is the one that failed before (the label is tested alone below)."""

from check_helpers import error_findings, line_of


def _page(out_shape="2 x 1"):
    return "\n".join([
        "# Two examples", "", "## Self-attention",
        "$$Q = K = V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$", "",
        "$$A = \\begin{bmatrix} 0.6698 & 0.3302 \\\\ 0.3302 & 0.6698 \\end{bmatrix}$$", "",
        "Now the queries come from one sequence and the keys from another:", "",
        "$$Q_{\\text{text}} = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad K_{\\text{image}} = "
        "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad V_{\\text{image}} = "
        "\\begin{bmatrix} 2 \\\\ 4 \\\\ 6 \\end{bmatrix}$$", "",
        "Compute $Q_{\\text{text}} K_{\\text{image}}^\\top$ (shape: 2 x 3):", "",
        "$$Q_{\\text{text}} K_{\\text{image}}^\\top = \\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{bmatrix}$$", "",
        f"Our Q had shape (2 x 2) and V had shape (3 x 1), so the output has shape ({out_shape}).", ""])


def test_the_second_examples_shapes_hold():
    assert error_findings(_page()) == []


def test_a_label_of_two_named_factors_is_their_product():
    from mha.check import labels as lb
    assert lb.parse_label("Q_{\\text{text}} K_{\\text{image}}^\\top").nodes == ("QKt",)
    assert lb.parse_label("Q^T").nodes == ("Q",)
