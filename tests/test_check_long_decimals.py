"""A number printed with hundreds of decimals (a damaged document: 1e-999 next to a long closed form) is rounded
at its own precision, not refused by Decimal's 28 digits with a traceback (found by tests/test_check_fuzz.py)."""

import mpmath
import sympy as sp

from mha.check.claims.exact_values import rounded_text


def test_a_closed_form_rounds_at_hundreds_of_decimals():
    x = 1 / (sp.exp(-7 * sp.sqrt(2) / 25) + 1)
    text = rounded_text(x, 999)
    assert len(text.split(".")[1]) == 999
    with mpmath.workdps(1100):               # the same value, independently, to more digits than printed
        ref = mpmath.nstr(1 / (mpmath.exp(-7 * mpmath.sqrt(2) / 25) + 1), 1050, strip_zeros=False)
    assert text[:990] == ref[:990]
    assert rounded_text(sp.Rational(1, 8), 2) == "0.12"     # half to even, as before
