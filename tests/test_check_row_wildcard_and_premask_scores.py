r"""Two readings from an outside trial's page (t241a), a causal head worked by hand, each with a page of my own.

1. `A_{2,*} = [0.5000, 0.5000, 0.0000]` quoted after the weights: row 2 of A, all its columns.  The wildcard was
   dropped and `A_{2}` read as head 2's weights, which made the configuration two heads of one number each and
   judged every matrix against that (`labels.py`).
2. `S = QK^T/\sqrt{2}` printed before `\tilde S = S + M`: the scores before the mask.  An entry there judged against
   the causal configuration's scores had -∞ as its "exact" value; it is now the score before the mask, Q Kᵀ times the
   scale (`claims/premask.py`, `live_score`).
My own numbers."""

import math

import pytest
from check_helpers import error_findings, line_of

from mha.check import check_document
from mha.check.labels import parse_label


def _page(qkt=r"1 & 0 & 1 \\ 1 & 1 & 0", s_rows=r"0.7071 & 0.0000 & 0.7071 \\ 0.7071 & 0.7071 & 0.0000"):
    return "\n".join([
        "## One causal head", "", "Let $d_k = 2$ and $T = 3$:", "",
        r"$$Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad K = \begin{bmatrix} 1 & 1 \\ 0 & 1 \\ "
        r"1 & 0 \end{bmatrix}, \quad V = \begin{bmatrix} 1 & 2 \\ 3 & 4 \\ 5 & 6 \end{bmatrix}$$", "",
        r"$$Q K^{\top} = \begin{bmatrix} " + qkt + r" \\ 2 & 1 & 1 \end{bmatrix}$$", "",
        r"$$S = \frac{Q K^{\top}}{\sqrt{2}} = \begin{bmatrix} " + s_rows + r" \\ 1.4142 & 0.7071 & 0.7071 \end{bmatrix}$$",
        "", r"$$\tilde{S} = S + M = \begin{bmatrix} 0.7071 & -\infty & -\infty \\ 0.7071 & 0.7071 & -\infty \\ "
        r"1.4142 & 0.7071 & 0.7071 \end{bmatrix}$$", "",
        r"$$A = \begin{bmatrix} 1.0000 & 0.0000 & 0.0000 \\ 0.5000 & 0.5000 & 0.0000 \\ 0.5035 & 0.2483 & 0.2483 "
        r"\end{bmatrix}$$", "",
        r"$$O = A V = \begin{bmatrix} 1.0000 & 2.0000 \\ 2.0000 & 3.0000 \\ 2.4895 & 3.4895 \end{bmatrix}$$", "",
        r"The second query's weights, $A_{2,*} = [0.5000, 0.5000, 0.0000]$, cover the first two keys only.", ""])


def test_a_row_wildcard_names_a_row_not_a_head():
    for text in ("A_{2,*}", r"A_{2,\cdot}", "A_{2,:}"):
        ref = parse_label(text)
        assert (ref.nodes, ref.raw_row, ref.raw_head) == (("A",), 2, None), (text, ref)
    assert parse_label("A_2").raw_head == 2            # without the wildcard, A_2 is still head 2's A


def test_the_page_is_one_causal_head_and_holds():
    report = check_document(_page(), fmt="md")
    assert report.configuration["H"].startswith("H = 1"), report.configuration
    assert [f for f in report.findings if f.severity == "error"] == [], [f.message() for f in report.findings]


def test_scores_the_mask_covers_later_are_judged_as_before_the_mask():
    # Q Kᵀ printed with four wrong entries and S worked from them: S is not identified, and its entries above the
    # diagonal were held against -∞
    page = _page(qkt=r"1 & 1 & 2 \\ 0 & 1 & 1", s_rows=r"0.7071 & 0.7071 & 1.4142 \\ 0.0000 & 0.7071 & 0.7071")
    found = [(f.claim, f.exact) for f in error_findings(page) if f.line == line_of(page, "S = \\frac")]
    assert found and all(math.isfinite(x) for _, x in found), found
    assert dict(found) == {"S[1,2]": 0.0, "S[1,3]": pytest.approx(0.707107, abs=1e-6), "S[2,3]": 0.0}, found
