r"""A matrix of weights printed one row per query under a caption, `attention weights:` over `q0:  1.0000  0.0000
0.0000`, `q1:  0.2261  0.7739  0.0000` (an outside trial's RoPE notes, t249a).  Each row was read as the query's own
vector (q0 is Q's first row), which matched nothing, so a slipped weight turned a checked row into "not checked".
Under a caption that names the weights (or the scores, or the outputs), a row named by its query is that row of
the captioned matrix; a finding names the entry, "A[3,2]".  My own numbers (Q and K given, causal, 1/√2)."""

from check_helpers import error_findings, line_of

from mha.check import check_document


def _page(w32="0.6120"):
    return "\n".join([
        "## Causal weights, row by row", "",
        "```",
        "q = [[1.541, -0.2934], [-2.1788, 0.5684], [-1.0845, -1.3986]]",
        "k = [[0.4033, 0.838], [-0.7193, -0.4033], [-0.5966, 0.182]]",
        "v = k",
        "```", "",
        "The softmax of each masked row of q kᵀ / √2:", "",
        "```",
        "attention weights:",
        "  q0:  1.0000   0.0000   0.0000",
        "  q1:  0.2261   0.7739   0.0000",
        f"  q2:  0.0758   {w32}   0.3122",
        "```", ""])


def test_the_rows_check_clean_as_rows_of_the_weights():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert not [n for n in report.not_checked if "q1" in n.what or "q2" in n.what]


def test_a_slipped_weight_in_a_named_row_is_found_and_named_by_its_entry():
    page = _page(w32="0.6210")
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "0.6210"), "0.6210")]
    assert found[0].claim == "A[3,2]"
