"""`Simplified = 6 ÷ 6 / 30 ÷ 6 = 1/5` (model-written text in an outside trial's training-log notebook, t262a): the
slash is a fraction's bar between two quotients, (6 ÷ 6)/(30 ÷ 6), but read left to right the line gives 1/30 and
was called a slip.  Where ÷ and / share one run of arithmetic, which is meant cannot be told, and that side is no
claim; a slash or a ÷ alone is read as before, on the same line too."""

from check_helpers import error_findings


def test_division_signs_mixed_in_one_run_are_no_claim():
    page = "```\nSimplified = 6 ÷ 6 / 30 ÷ 6\n           = 1/5\n```\n"
    assert error_findings(page) == []


def test_each_sign_alone_is_still_judged():
    assert error_findings("Two quotients: 6 ÷ 3 = 2, and 1/5 = 0.2.\n") == []
    found = error_findings("Two quotients: 6 ÷ 3 = 2, and 1/5 = 0.3.\n")
    assert [(f.line, f.printed) for f in found] == [(1, "0.3")]
    found = error_findings("Two quotients: 6 ÷ 3 = 3, and 1/5 = 0.2.\n")
    assert [(f.line, f.printed) for f in found] == [(1, "3")]
