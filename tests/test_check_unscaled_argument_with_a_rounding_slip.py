r"""`Softmax([2, 2, 4]) = [0.2119, 0.2119, 0.5762]` on a page that divides by √d_k = 2 (the weights are those of
[1, 1, 2]; its third is also a unit off, 0.57612), the document the field set holds as fieldK-01 and an outside
trial met again (t249c).  The row's one slip is the unscaled argument; it was said only where every weight was the
scaled row's to its digits, so this line got three findings, each with the wrong cause.  A row explained by the
scale with all weights but one to their digits, that one a unit off, is one finding whose cause is the scale.
My own numbers."""

from check_helpers import error_findings, line_of


def _page(third="0.5762"):
    return "\n".join([
        "## Scaled weights", "",
        "```",
        "d_k = 4  ->  sqrt(d_k) = 2",
        "Weights(a) = Softmax([2, 0, 2]) = [0.4683, 0.0634, 0.4683]",
        f"Weights(b) = Softmax([2, 2, 4]) = [0.2119, 0.2119, {third}]",
        "```", ""])


def test_an_unscaled_argument_with_a_unit_off_is_one_finding_on_the_scale():
    page = _page()
    found = [f for f in error_findings(page) if f.line == line_of(page, "Weights(b)")]
    assert len(found) == 1
    assert "not scaled" in found[0].cause


def test_an_unscaled_argument_with_every_weight_right_is_one_finding_too():
    page = _page(third="0.5761")
    found = [f for f in error_findings(page) if f.line == line_of(page, "Weights(b)")]
    assert len(found) == 1 and "not scaled" in found[0].cause


def test_a_written_softmax_that_holds_is_no_finding():
    page = _page()
    assert [f for f in error_findings(page) if f.line == line_of(page, "Weights(a)")] == []
