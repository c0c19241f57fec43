r"""An ALiBi example in a code block: `Biases: [-1.0, -0.5, 0]` over `Scores: [0.2-1.0, 0.9-0.5, 0.4-0] = [-0.8,
0.4, 0.4]`, then `Softmax: [...]` (an outside trial's ALiBi guide, t249a).  The two labelled lines were read as the
rows of one matrix drawn under the block's caption, so the written differences were never worked out and a slip in
a biased score went unreported.  A bias (ALiBi's, or any added to the scores) is named as the mask is, so a line
naming it and a line naming the scores are two printouts.  My own numbers."""

from check_helpers import error_findings, line_of

from mha.check.labels import parse_label


def _page(third="0.4"):
    return "\n".join([
        "## One head with a linear bias", "",
        "```",
        "  HEAD 1 (slope 1/2):",
        "    Biases: [-1.0, -0.5, 0]",
        f"    Scores: [0.2-1.0, 0.9-0.5, 0.4-0] = [-0.8, 0.4, {third}]",
        "    Softmax: [0.131, 0.435, 0.435]",
        "```", ""])


def test_a_bias_is_named_as_the_mask():
    assert parse_label("Biases").nodes == ("mask",)
    assert parse_label("ALiBi bias").nodes == ("mask",)
    assert parse_label("q_proj.bias").nodes == ("b_Q",)      # a layer's bias stays that layer's


def test_the_clean_block_checks_clean():
    assert error_findings(_page()) == []


def test_a_slipped_biased_score_is_found_on_its_line():
    page = _page(third="0.5")
    found = [f for f in error_findings(page) if f.severity == "error"]
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "Scores:"), "0.5")]
