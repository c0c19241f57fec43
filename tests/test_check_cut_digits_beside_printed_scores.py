r"""A page that cuts its digits off instead of rounding (0.669 for 0.66976, 3.348 for 3.34881) and works a softmax
of two printed scores, `softmax([0, 0.707]) = [e^0/(..), e^0.707/(..)] ≈ [.., 0.669]`, as an outside trial's Korean
lecture does (t246a).  The checker had found the page truncates, and said so, but the weights worked beside their
printed scores were still held to rounding: 0.669 was an error there, and right in the matrix below.  Under a
truncating page a weight cut off is no slip anywhere; a weight wrong both ways (0.331) still is.  My own numbers:
Q = K = I, V 2×3, causal, scaled by √2."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(first="0.330"):
    return "\n".join([
        "# Causal attention, two tokens (digits cut after the third decimal)", "",
        "$$Q = K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad "
        "V = \\begin{bmatrix} 1 & 0 & 0 \\\\ 0 & 5 & 9 \\end{bmatrix}$$", "",
        "Scaled scores with the mask:", "",
        "$$", "S \\approx", "\\begin{bmatrix}", "0.707 & -\\infty \\\\", "0 & 0.707", "\\end{bmatrix}", "$$", "",
        "Row 2:", "",
        "$$", "\\mathrm{softmax}([0, 0.707])", "=", "\\left[", "\\frac{e^{0}}{e^{0}+e^{0.707}},",
        "\\frac{e^{0.707}}{e^{0}+e^{0.707}}", "\\right]", "\\approx", f"[{first},\\ 0.669]", "$$", "",
        "$$", "A", "\\approx", "\\begin{bmatrix}", "1.000 & 0.000 \\\\", f"{first} & 0.669", "\\end{bmatrix}", "$$", "",
        "$$", "O = A V \\approx", "\\begin{bmatrix}", "1.000 & 0.000 & 0.000 \\\\", "0.330 & 3.348 & 6.027",
        "\\end{bmatrix}", "$$", ""])


def test_a_cut_off_weight_beside_its_scores_is_no_slip():
    report = check_document(_page(), fmt="md")
    assert any("cut off" in e for e in report.evidence), report.evidence
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_weight_wrong_either_way_is_still_found():
    page = _page("0.331")
    places = error_places(page, fmt="md")
    assert places and {p for _, p in places} == {"0.331"}
    assert line_of(page, "[0.331,") in {ln for ln, _ in places}
