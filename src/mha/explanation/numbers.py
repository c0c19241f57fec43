"""How a number is printed: the one place that rounds.

`format_number` decides the digits; each renderer only draws the result in its
own notation (LaTeX ``1.5\\times10^{300}``, terminal ``1.5×10³⁰⁰``, HTML
``1.5×10<sup>300</sup>``), so no renderer rounds and nothing parses a number back.

>>> format_number(0.751745, 4)
Printed(sign='', digits='0.7517', exponent=None)
>>> format_number(3.0, 4), format_number(-0.00001, 4)
(Printed(sign='', digits='3', exponent=None), Printed(sign='', digits='0.0000', exponent=None))
>>> format_number(-1.5e300, 4)
Printed(sign='-', digits='1.5000', exponent=300)
>>> latex_number(float("-inf"), 4), latex_number(2.5e12, 2)
('-\\\\infty', '2.50\\\\times10^{12}')
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from typing import NamedTuple

# From this magnitude on, numbers are written as mantissa × 10^exponent: a fixed-point 1e300 would be 301
# digits wide.  Integers below it print plainly, as the worked example does ("1", not "1.0000").
SCIENTIFIC_FROM = 1e9


class Printed(NamedTuple):
    """A number as it is shown: sign, digits (or "inf" / "nan"), and a power of ten when scientific."""

    sign: str              # "" or "-"
    digits: str            # "0.7517", "3", "1.5000" (the mantissa when exponent is set), "inf", "nan"
    exponent: int | None   # x = sign digits × 10^exponent


def format_number(x: float, precision: int, *, scientific: bool = False) -> Printed:
    """Round x for display: integers plainly, others to `precision` decimals, huge ones in scientific notation.

    scientific=True writes every nonzero number as mantissa × 10^exponent (for
    differences such as 1.1e-16, where fixed-point would show only zeros).
    """
    if isinstance(x, Decimal):
        return _format_decimal(x, precision, scientific)
    x = float(x)
    if math.isnan(x):
        return Printed("", "nan", None)
    sign = "-" if x < 0 else ""
    a = abs(x)
    if math.isinf(a):
        return Printed(sign, "inf", None)
    if a >= SCIENTIFIC_FROM or (scientific and a != 0):
        mantissa, exponent = f"{a:.{precision}e}".split("e")
        return Printed(sign, mantissa, int(exponent))
    if a.is_integer():
        return Printed(sign, str(int(a)), None)
    digits = f"{a:.{precision}f}"
    if float(digits) == 0:          # -0.00001 shows as 0.0000, not -0.0000
        sign = ""
    return Printed(sign, digits, None)


def _format_decimal(x: Decimal, precision: int, scientific: bool) -> Printed:
    """The same rules for certified digits (`mha.exact.to_decimal`): Decimal rounds half to even, as floats do.

    Formatting rounds to the decimal context's precision first, so it runs in a context wide enough for x."""
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, len(x.as_tuple().digits) + precision + 30)
        return _format_wide(x, precision, scientific)


def _format_wide(x: Decimal, precision: int, scientific: bool) -> Printed:
    if x.is_nan():
        return Printed("", "nan", None)
    sign = "-" if x.is_signed() and x != 0 else ""
    a = abs(x)
    if a.is_infinite():
        return Printed(sign, "inf", None)
    if a >= SCIENTIFIC_FROM or (scientific and a != 0):
        mantissa, exponent = f"{a:.{precision}e}".split("e")
        return Printed(sign, mantissa, int(exponent))
    if a == a.to_integral_value():
        return Printed(sign, str(int(a)), None)
    digits = f"{a:.{precision}f}"
    return Printed("" if Decimal(digits) == 0 else sign, digits, None)


def latex_number(x: float, precision: int, *, scientific: bool = False) -> str:
    """The number in LaTeX math: what the Markdown and LaTeX views print, and what displays are built from."""
    p = format_number(x, precision, scientific=scientific)
    if p.digits == "inf":
        return p.sign + "\\infty"
    if p.digits == "nan":
        return "\\mathrm{NaN}"
    if p.exponent is not None:
        return f"{p.sign}{p.digits}\\times10^{{{p.exponent}}}"      # no spaces: the terminal reads 1.5×10³⁰⁰
    return p.sign + p.digits


def prose_number(x: float, precision: int, *, scientific: bool = False) -> str:
    """The number inside a sentence: plain digits, or inline math when it needs a symbol or a power of ten."""
    p = format_number(x, precision, scientific=scientific)
    if p.exponent is None and p.digits not in ("inf", "nan"):
        return p.sign + p.digits
    return f"${latex_number(x, precision, scientific=scientific)}$"


def same_when_shown(x: float, y: float, precision: int) -> bool:
    """Do x and y print the same at this precision (as fixed-point decimals)?"""
    if isinstance(x, Decimal) or isinstance(y, Decimal):
        return format_number(Decimal(x), precision) == format_number(Decimal(y), precision)
    return f"{float(x):.{precision}f}" == f"{float(y):.{precision}f}"
