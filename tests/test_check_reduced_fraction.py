"""A quotient written again as a reduced fraction (t158c, a practice-problem page): "Weight[2] = e^0.5 / (3 × e^0.5)
= 1/3 ≈ 0.33".  Two quotients on either side of "=" were compared part by part (numerator with numerator), as in
`\\frac{a}{b + c} = \\frac{a}{d}`, so 1 was "wrong" against e^0.5 on three right lines.  When both sides are numbers
of the same value the fraction is reduced, not worked out part by part (claims/arithterms.same_value).
"""

import math

from mha.check import check_document

DOC = """# Three equal scores

The scores of token 2 are all 0.5, so:

- Weight[1] = e^0.5 / (3 × e^0.5) = 1/3 ≈ 0.33
- Weight[2] = e^0.5 / (3 × e^0.5) = 1/3 ≈ 0.33
- Weight[3] = e^0.5 / (3 × e^0.5) = 1/3 ≈ 0.33
- In halves: w = 3 / 6 = 1/2 = 0.5
"""


def test_the_fractions_are_what_they_say():
    assert math.isclose(math.exp(0.5) / (3 * math.exp(0.5)), 1 / 3) and 3 / 6 == 1 / 2
    assert round(1 / 3, 2) == 0.33


def test_reduced_fractions_give_no_finding():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 4, [f.describe() for f in r.findings]


def test_a_wrong_reduced_fraction_is_still_found():
    r = check_document(DOC.replace("w = 3 / 6 = 1/2", "w = 3 / 6 = 1/3"), fmt="md")
    assert [f.line for f in r.errors] == [8], [f.describe() for f in r.findings]
