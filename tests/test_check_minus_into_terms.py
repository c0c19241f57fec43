"""A loss worked in one display (an outside trial's Traditional Chinese forward-pass notes, t259b):
`L = -½(log 0.2 + log 0.125) = ½(1.611 + 2.079) = 1.845`, with p printed to fewer digits than the page worked
with (0.2 for 0.1996).  The minus went into the terms, each written as its negative (−log p), and the two halves
were compared factor by factor: 1.611 against log 0.2 = −1.609, an "arithmetic slip" on a right line.  Where one side's factors carry a minus the other's do not, no factor stands
for its partner; the line's total is still judged.  My own numbers: p = 0.1996 and 0.125."""

from check_helpers import error_findings

_PAGE = """**Cross-entropy** over the two positions:

$$
L = -\\tfrac{{1}}{{2}}\\big(\\log 0.2 + \\log 0.125\\big)
= \\tfrac{{1}}{{2}}({a} + 2.079) = {total}
$$
"""

_SAME_SIGN = """$$
L = -\\tfrac{{1}}{{2}}\\big(\\log 0.2 + \\log 0.125\\big) = -\\tfrac{{1}}{{2}}({a} - 2.079)
$$
"""


def test_a_minus_taken_into_the_terms_holds():
    assert error_findings(_PAGE.format(a="1.611", total="1.845")) == []


def test_a_wrong_total_there_is_found():
    found = error_findings(_PAGE.format(a="1.611", total="1.945"))
    assert [(f.line, f.printed) for f in found] == [(5, "1.945")]


def test_factors_with_the_same_sign_are_still_compared():
    assert error_findings(_SAME_SIGN.format(a="-1.609")) == []
    found = error_findings(_SAME_SIGN.format(a="-1.809"))
    assert [(f.line, f.printed) for f in found] == [(2, "-1.809")]
