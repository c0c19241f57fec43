r"""A softmax walked through in a lesson's notebook, one printed row per step (`Raw scores: [...]`, `After exp():
[...]`, `Sum: 11.61`, `After softmax: [...]`), followed later by an illustrative 6×6 table of weights (an outside
trial's notebook, t252b).  The table was taken for X with every projection assumed, which computes no printout, and
everything before it was set aside: the page's own wrong sum and a slipped exponential went unreported.  A guessed
X that computes nothing gives way to a start that computes a printout (the raw scores, whose exponentials follow),
and a sum named under a printed row of exponentials is their total (the printed one, or the exact one).
My own numbers."""

from check_helpers import error_findings, line_of

from mha.check import check_document

_TABLE = """

The weights might show patterns like these:

```
         The   cat   sat   on
    The [0.4, 0.2, 0.1, 0.3]
    cat [0.1, 0.5, 0.3, 0.1]
    sat [0.2, 0.4, 0.3, 0.1]
    on  [0.3, 0.1, 0.2, 0.4]
```
"""


def _page(exps="[1.22, 2.01, 1.65, 1.11]", total="5.99"):
    return "\n".join([
        "## Softmax step by step", "",
        "```",
        "Raw scores:     [0.2, 0.7, 0.5, 0.1]",
        f"After exp():    {exps}",
        f"Sum:            {total}",
        "After softmax:  [0.20, 0.34, 0.28, 0.18]",
        "```", ""]) + _TABLE


def test_the_walkthrough_checks_clean_from_its_raw_scores():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.configuration["mode"].startswith("starts from raw scores given")


def test_a_wrong_sum_of_the_exponentials_is_found():
    page = _page(total="6.99")
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "6.99"), "6.99")]


def test_a_slipped_exponential_summed_right_is_one_finding():
    page = _page(exps="[1.22, 2.10, 1.65, 1.11]")
    assert [(f.line, f.printed) for f in error_findings(page)] == [(line_of(page, "2.10"), "2.10")]


def test_a_sum_on_a_line_with_its_own_row_is_that_rows():
    # (an outside trial's HTML lesson, t249b, rescored on this session's checker: `→ softmax = [...] → Σ = 1.000`
    # under the exponentials' line was taken for their sum)
    page = "\n".join([
        "## One row", "",
        "logits = [2.0, 1.0, 0.1]", "",
        "→ exp = [7.39, 2.72, 1.11] → sum = 11.21", "",
        "→ softmax = [0.659, 0.242, 0.099] → Σ = 1.000", ""])
    assert error_findings(page) == []
