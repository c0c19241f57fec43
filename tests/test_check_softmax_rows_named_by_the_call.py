r"""Rows of weights made up by the author, from an outside trial's page (t240d): `\text{Weights} =
\text{softmax}\left(\frac{QK^T}{\sqrt{2}}\right) = \begin{bmatrix} ... \end{bmatrix}` whose rows sum to 0.95, 0.84 and
0.99.  Nothing of the configuration matches such a matrix, and the row-sum check wanted two rows that sum to 1 before
it took the matrix for weights (a caption can sit over another matrix), so the two wrong rows were missed.  When the
equation itself writes the matrix as the value of a softmax call, one row that sums to 1 is enough
(`claims/rowsum.py`).  A matrix that only a caption calls the weights still needs two.  My own numbers."""

from check_helpers import error_findings, line_of


def _page(named=True):
    lhs = r"\text{Weights} = \text{softmax}\left(\frac{QK^T}{\sqrt{2}}\right) = " if named else ""
    return "\n".join([
        "## Krok 5", "", "Attention weights:" if not named else "Softmax of each row:", "",
        "$$" + lhs + r"\begin{bmatrix}", r"0.40 & 0.20 & 0.30 \\", r"0.25 & 0.45 & 0.30 \\", r"0.20 & 0.30 & 0.35",
        r"\end{bmatrix}$$", ""])


def test_rows_of_a_softmax_call_that_do_not_sum_to_one_are_found():
    page = _page()
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [
        (line_of(page, "0.40 & 0.20"), "0.40 + 0.20 + 0.30 = 0.90"),
        (line_of(page, "0.20 & 0.30 & 0.35"), "0.20 + 0.30 + 0.35 = 0.85")], [f.message() for f in errs]


def test_a_matrix_only_a_caption_names_needs_two_rows_that_sum():
    assert error_findings(_page(named=False)) == []
