"""A total worked out twice, once right from its own terms and once as a sum whose written terms are wrong:

    acc = 0.25 × 1.20 + 0.90 = 1.20
    check: weighted sum = 0.30 + 0.50 + 0.90 = 1.20          (the terms add up to 1.70)

The second line was reported as "printed 1.20; the terms give 1.70", blaming a total that is right (the first line
works it out, and an outside trial's page did the same with an online softmax, t238d).  When another line works
out the same total from terms of its own, the finding names the written terms instead: one of them is wrong
(`claims/setequal.py`, `total_worked_elsewhere`).  A total that nothing else works out is still the one blamed.
My own numbers."""

from check_helpers import error_findings, line_of


def _page(check="0.30 + 0.50 + 0.90 = 1.20", acc="acc = 0.25 × 1.20 + 0.90 = 1.20"):
    return "\n".join(["# Merging two blocks", "", "```", acc, f"check: weighted sum = {check}", "```", ""])


def test_a_wrong_term_is_named_when_the_total_is_worked_out_elsewhere():
    page = _page()
    errs = error_findings(page)
    assert len(errs) == 1 and errs[0].line == line_of(page, "check:"), [f.message for f in errs]
    assert errs[0].printed == "0.30+0.50+0.90" and "a term is wrong" in errs[0].cause, errs[0].message


def test_a_total_nothing_else_works_out_is_still_blamed():
    page = _page(acc="acc = 1.20")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "check:"), "1.20")], [f.message for f in errs]


def test_right_terms_hold():
    assert error_findings(_page(check="0.30 + 0.00 + 0.90 = 1.20")) == []
