"""A column of two written sums, its values, and the values rounded again:

    $$= \\begin{bmatrix} 0.48 + 0.0 + 0.126 \\\\ 0.0 + 0.33 + 0.054 \\end{bmatrix}
      = \\begin{bmatrix} 0.606 \\\\ 0.384 \\end{bmatrix} \\approx \\begin{bmatrix} 0.61 \\\\ 0.38 \\end{bmatrix}$$

A matrix of written arithmetic is judged only when two thirds of its values, and at least two, agree with the
arithmetic written in their places: with two cells, one slip left it "another step is meant", and the slip was
missed (an outside trial's page, t233a).  When the values are rounded again after them, and every rounded cell is
its arithmetic at that precision while the odd value is not its rounded copy, the three writings are one
computation and the odd value is the slip (`claims/cellwise.py`, `_witnessed`).  My own page and numbers."""

from check_helpers import error_findings, line_of

def _page(second="0.384", rounded="0.38"):
    return "\n".join([
        "# Mixing two value vectors", "",
        "The weights are 0.8, 0.0 and 0.42 after the softmax of the scores of one query; each value vector is",
        "scaled by its weight and the results are added.", "",
        "$$\\text{Result} = \\begin{bmatrix} 0.48 \\\\ 0.0 \\end{bmatrix} + \\begin{bmatrix} 0.0 \\\\ 0.33 \\end{bmatrix}"
        " + \\begin{bmatrix} 0.126 \\\\ 0.054 \\end{bmatrix}$$", "",
        "$$= \\begin{bmatrix} 0.48 + 0.0 + 0.126 \\\\ 0.0 + 0.33 + 0.054 \\end{bmatrix} = \\begin{bmatrix} 0.606 \\\\ "
        f"{second} \\end{{bmatrix}} \\approx \\begin{{bmatrix}} 0.61 \\\\ {rounded} \\end{{bmatrix}}$$", ""])


def test_the_clean_column_holds():
    assert error_findings(_page()) == []


def test_a_slipped_sum_is_found_when_its_rounded_copy_disagrees_with_it():
    page = _page(second="0.348")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "0.606"), "0.348")], [f.message for f in errs]
    assert "0.384" in errs[0].rounded


def test_no_finding_when_the_rounded_copy_follows_the_slipped_value():
    # 0.348 ≈ 0.35: the copy was rounded from the slipped value, so nothing says which writing is meant
    assert error_findings(_page(second="0.348", rounded="0.35")) == []
