"""A product one of whose factors is printed to fewer significant figures than the result: `0.999665 × 0.000335 =
3.352×10⁻⁴`, where 0.000335 is 1 − p rounded to three figures and the result is p(1 − p) worked unrounded.

Final check of the stop (a false finding): the factors were taken as exact ("0.999665*0.000335 gives 3.349e-04").
A factor with three significant figures or more but fewer than the result's is the rounding it is
(claims/arithterms.product_of_short_factors); a product of short exact factors (0.5 × 0.3) is still held to its value.
"""

from mha.check import check_document

LINE = "# Saturation\n\nFor a logit gap of 8: $0.999665 \\times 0.000335 = {}\\times10^{{-4}}$\n"


def test_the_product_of_the_unrounded_factors_holds():
    r = check_document(LINE.format("3.352"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_slip_in_it_is_found():
    r = check_document(LINE.format("3.452"), fmt="md")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.findings]


def test_short_exact_factors_stay_exact():
    r = check_document("# P\n\n$0.5 \\times 0.3 = 0.16$\n", fmt="md")
    assert [f.printed for f in r.errors] == ["0.16"], [f.describe() for f in r.findings]
