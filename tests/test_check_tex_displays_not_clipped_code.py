r"""One-line TeX displays in Markdown, `\[ ... \]`, each a paragraph of its own and the later ones going on with
`\[ = ...`, from an outside trial's page (t240b).  A line that opens with `\[` also opens a row of a tensor that a web
clipper escaped, so three such paragraphs in a row were fenced as clipped code (`readers/clipped.py`) and nothing
after the inputs was read: "no printed result follows".  A line with TeX commands in it is no clipped code.  My own
numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(weights=r"0.5 & 0.5 \\ 0.3302 & 0.6698"):
    return "\n".join([
        "## 例子", "", r"\[ Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, K = \begin{bmatrix} 1 & 0 \\ 1 & 1 "
        r"\end{bmatrix}, V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix} \]", "",
        r"\[ \text{softmax}\left(\frac{QK^T}{\sqrt{2}}\right) V = \text{softmax}\left(\frac{1}{\sqrt{2}} "
        r"\begin{bmatrix} 1 & 1 \\ 0 & 1 \end{bmatrix}\right) \cdot \begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix} \]", "",
        r"\[ = \text{softmax}\left(\begin{bmatrix} 0.7071 & 0.7071 \\ 0 & 0.7071 \end{bmatrix}\right) \cdot V = "
        r"\begin{bmatrix} 0.5 & 0.5 \\ 0.3302 & 0.6698 \end{bmatrix} \cdot V \]", "",
        r"\[ = \begin{bmatrix} 1 & 1 \\ 0.6605 & 1.3395 \end{bmatrix} \]", "",
        "其中注意力权重为", "", rf"\[ A = \begin{{bmatrix}} {weights} \end{{bmatrix}} \]", ""])


def test_the_displays_after_the_inputs_are_read_and_hold():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 8, report.n_numbers          # the output and the weights, not the inputs alone


def test_a_slip_in_a_later_display_is_found():
    page = _page(r"0.5 & 0.5 \\ 0.3302 & 0.6968")
    assert error_places(page) == [(line_of(page, "0.6968"), "0.6968")]
