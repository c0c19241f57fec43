"""A written-out dot product plus a bias: products rounded to four decimals, the bias exact and short.

Outside trial t188e (a transformer block computed by hand): `= 0.2701 - 0.0538 - ... + 0.05 = 0.0328` was called an
arithmetic slip because the rounded products add up to 0.0327, though the unrounded ones give 0.0328 as printed.
Four-decimal addends are results rounded for print whether or not a short constant joins them (claims/rounding.py
`rounded_addends`), so the sum is judged within their rounding.
"""

from check_helpers import error_places

# h = [1.3504, -0.3966, 0.1888, -0.0212], w = [0.12, -0.07, -0.03, 0.05], b = 0.03: h·w + b = 0.213086
PAGE = """# One unit of the feed-forward layer

The hidden vector is h = [1.3504, -0.3966, 0.1888, -0.0212], the weight column is w = [0.12, -0.07, -0.03, 0.05]
and the bias is b = 0.03. Term by term:

$$1.3504 \\times 0.12 + (-0.3966) \\times (-0.07) + 0.1888 \\times (-0.03) + (-0.0212) \\times 0.05 + 0.03$$

$$= 0.1620 + 0.0278 - 0.0057 - 0.0011 + 0.03 = 0.2131$$
"""



def test_the_sum_with_a_short_bias_holds():
    assert error_places(PAGE) == []


def test_a_slipped_result_is_still_found():
    assert error_places(PAGE.replace("= 0.2131", "= 0.2231")) == [(8, "0.2231")]


def test_short_addends_alone_are_still_judged_as_written():
    page = "# Sum\n\n$$0.30 + 0.06 + 0.02 + 0.05 = 0.44$$\n"
    assert error_places(page) == [(3, "0.44")]
