r"""A softmax written as a vector of exponentials over their sum, `$[e^1, e^0, e^{0.5}] / (e^1 + e^0 + e^{0.5})
\approx [0.506, 0.186, 0.307]$` (an outside trial's lecture notes, t247c).  A bracket was a vector only when its
entries were plain numbers, so the whole line went unread and a slipped weight was missed.  An entry that is the
exponential of a number is worked out, as a plain number is read; the line is the softmax step.  My own numbers."""

import pytest
from check_helpers import error_findings, line_of

from mha.check import check_document

_LINES = {
    "tex": r"**Weights:** $[e^{2}, e^{1}, e^{0}] / (e^{2} + e^{1} + e^{0}) \approx [{w}]$.",
    "code": "weights = [exp(2), exp(1), exp(0)] / (exp(2) + exp(1) + exp(0)) ≈ [{w}]",
}


def _page(kind, w="0.665, 0.245, 0.090"):
    body = _LINES[kind].replace("{w}", w)
    if kind == "code":
        body = "```\n" + body + "\n```"
    return "## Three scores\n\nThe scores of one query are 2, 1 and 0.\n\n" + body + "\n"


@pytest.mark.parametrize("kind", ["tex", "code"])
def test_the_clean_line_checks_clean(kind):
    report = check_document(_page(kind), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 3


@pytest.mark.parametrize("kind", ["tex", "code"])
def test_a_slipped_weight_is_found_as_a_softmax_step(kind):
    page = _page(kind, w="0.665, 0.254, 0.090")
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "0.254"), "0.254")]
    assert found[0].step == "softmax"
