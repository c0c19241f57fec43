"""What an arithmetic line's own printed terms allow (helpers of arith.py): angles read in degrees, a single product
of rounded factors, sums within their addends' rounding, values cut off rather than rounded, units dropped, roots
carried at the printed precision."""

from __future__ import annotations

import math

from .. import numbers as nb
from ..numbers import Num
from .common import rounded_terms
from .target import _ops


FLOAT32_MAX = 3.4028235e38


def in_degrees(e, n: Num) -> bool:
    """Does the expression, its angles read in degrees, give n?"""
    def deg(x):
        if isinstance(x, nb.Op) and x.op in ("cos", "sin", "tan"):
            a = x.args[0]
            return nb.Op(x.op, (nb.Op("*", (a, nb.Lit(Num(math.pi / 180, "π/180", math.pi / 180, math.pi / 180, 0,
                                                               None)))),))
        if isinstance(x, nb.Op):
            return nb.Op(x.op, tuple(deg(y) for y in x.args))
        return x
    try:
        return abs(nb.face(deg(e)) - n.value) <= n.half * (1 + 1e-9) + 1e-12
    except (ArithmeticError, OverflowError, ValueError):
        return False


def one_product(e) -> bool:
    """A single product or quotient of printed numbers (0.0877 × 1.7692, -0.6571 / 3): a factor printed at the
    result's precision is the rounding of the number the product was taken of, and one unit of it moves the
    product by as much as the other factor; a sum of terms is not one (its addends are added as printed)."""
    while isinstance(e, nb.Op) and (e.op == "neg" or e.op == "+" and len(e.args) == 1):
        e = e.args[0]                        # -0.0877 × 1.7692, "+ 0.0877 × 1.7692" down a column
    return isinstance(e, nb.Op) and e.op in ("*", "/")


def within_addends(left, n: Num, face: float) -> bool:
    """Is the line a sum of plain printed numbers whose own rounding spans the gap between their face sum and the
    printed total?"""
    if not isinstance(left, nb.Op) or left.op != "+":
        return False
    terms = nb.terms_of(left)
    nums = [nb.plain_number(t) for t in terms]
    if len(nums) < 2 or any(x is None or x.decimals is None for x in nums):
        return False
    return abs(face - n.value) <= sum(x.half for x in nums) + n.half + 1e-12


def exact_aside(n: Num, got: float, exacts: list[float]) -> str:
    """" (exact 0.4378)": the trace's value, said only when the line's own terms land on it at the printed
    precision; a line that computes something else (an aside, another example) is told only what its terms give."""
    if not exacts:
        return ""
    x = float(min(exacts, key=lambda x: abs(x - got)))
    return f" (exact {x:.6g})" if n.rounded(x) == n.rounded(got) else ""


def within_print(n: Num, x: float) -> bool:
    return n.contains(float(x), getattr(x, "band", 0.0))


def same_value(left, right) -> bool:
    """Both sides are numbers (no symbols) and the left's value lies within the right's, as the right is printed."""
    if nb.has_symbols(left) or nb.has_symbols(right):
        return False
    try:
        face = nb.face(left)
        iv = nb.evaluate(right)
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False
    eps = 1e-9 * max(1.0, abs(face))
    return iv.lo - eps <= face <= iv.hi + eps


def at_precision(n: Num) -> Num:
    """An integer under ≈ stands for its unit: "≈ 34" is any value that rounds to 34; a round one of three significant
    digits or more may be cut down rather than rounded (`≈ 422,500,000` for 422,564,103): its digits and one unit of
    the last beyond them, away from zero.  (A decimal cut down under ≈ is a note: claims/arith.py, cut_down.)"""
    if not math.isfinite(n.value) or "e" in n.text.lower():
        return n
    if n.decimals is not None or not n.exact:
        return n
    digits = n.text.strip().lstrip("-−+")
    zeros = len(digits) - len(digits.rstrip("0"))
    # "312/1.5 ≈ 200": a round number of three or more digits stands for its leading digits (208 is about 200)
    unit = 10.0 ** zeros if digits.isdigit() and len(digits) >= 3 and zeros < len(digits) else 1.0
    if unit == 1.0 and digits.isdigit() and len(digits) >= 4:
        # "exp(12) ≈ 162754" for 162754.79: a long whole number cut down, not rounded, is still about right
        return Num(n.value, n.text, n.value - 1.0, n.value + 1.0, n.line, 0)
    if unit > 1.0 and len(digits) - zeros >= 3:
        lo, hi = (n.value - unit / 2, n.value + unit) if n.value > 0 else (n.value - unit, n.value + unit / 2)
        return Num(n.value, n.text, lo, hi, n.line, 0)
    return Num(n.value, n.text, n.value - unit / 2, n.value + unit / 2, n.line, 0)


def cut_down(n: Num, got: float) -> bool:
    """`≈ 162.4 × 10^6` for 162.46 million, `≅ 66%` for 2/3: the value's digits cut off after the last printed one
    rather than rounded (three significant digits or more, two for a share)."""
    if n.decimals is None or not math.isfinite(got) or \
            (nb.significant_digits(n) or 0) < (2 if n.text.endswith("%") else 3):
        return False
    cut = math.trunc(got * 10 ** n.decimals) / 10 ** n.decimals
    return abs(cut - n.value) < 1e-9 * max(1.0, abs(got))


def product_of_short_factors(left, n: Num) -> bool:
    """A product (or quotient) one of whose factors, printed to three significant figures or more, has fewer of them
    than the result: that factor is a rounding, and the result may be worked from what it rounds."""
    if not (isinstance(left, nb.Op) and left.op in ("*", "/")):
        return False
    figures = nb.significant_digits(n)
    return any(isinstance(x, nb.Lit) and 3 <= nb.significant_digits(x.num) < figures for x in left.args)


def rounded_terms_allow(left, n: Num) -> bool:
    """Do the written terms, each taken as the rounding it is when printed to three or more significant digits
    (a rounded constant such as 1.41, a rounded intermediate such as 33.2), allow the printed result?"""
    iv = rounded_terms(left)
    return iv is not None and iv.lo - 1e-12 <= n.hi and n.lo <= iv.hi + 1e-12


def has_vector(e) -> bool:
    """Does the expression hold a bracketed vector ([0.6, 0.8] · [0.4, 0.7], 0.3 × [0.5, 0.5])?"""
    return isinstance(e, nb.Vec) or isinstance(e, nb.Op) and any(has_vector(a) for a in e.args)


def decimal_literal(e) -> bool:
    """Does the expression hold a number written with decimals (so that what it gives is no whole count)?"""
    if isinstance(e, nb.Lit):
        return bool(e.num.decimals)
    return isinstance(e, nb.Op) and any(decimal_literal(a) for a in e.args)


def whole_count(left, n: Num, face: float) -> bool:
    """"13,476,831,232 / 524,288 = 25,705 tokens": a whole number of 100 or more as the result of a division counts
    whole items (tokens, sequences, bytes): rounded or cut down to a whole one, it is no slip.  So is the integer
    division of two whole numbers (`d_k = 512/12 ≈ 42`, a head's width as `d_model // h` gives it)."""
    if n.decimals not in (None, 0) or "." in n.text or not math.isfinite(face) or "/" not in _ops(left):
        return False
    if abs(face) >= 100 and n.decimals is None:
        return math.floor(face) <= n.value <= math.ceil(face)
    whole = isinstance(left, nb.Op) and left.op == "/" and len(left.args) == 2 and \
        all((x := nb.plain_number(a)) is not None and x.decimals is None for a in left.args)
    return whole and n.value == math.floor(face)


def unit_dropped(face: float, n: Num) -> bool:
    """"32768² × 32 ≈ 34 (billion)": the result written in thousands, millions or billions."""
    if not math.isfinite(face) or face == 0 or n.value == 0 or (face > 0) != (n.value > 0):
        return False
    return any(n.contains(face / 10.0 ** k) for k in (3, 6, 9, 12))


def rounded_twice(n: Num, x: float) -> bool:
    """Is the printed value the exact one rounded (half up, as by hand) to one or two more decimals first, and then
    to its own (1.12750 for e^{0.12} = 1.1274969, then 1.128)?"""
    from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
    if n.decimals is None or n.decimals < 1 or not math.isfinite(x) or abs(n.value - x) > 2 * n.half + 1e-12:
        return False
    try:
        for extra in (1, 2):
            first = Decimal(repr(round(x, n.decimals + extra)))
            twice = first.quantize(Decimal(1).scaleb(-n.decimals), rounding=ROUND_HALF_UP)
            if float(twice) == n.value:
                return True
    except (InvalidOperation, ValueError, OverflowError):
        return False
    return False


def speaks_for(exacts: list[float], n: nb.Num, iv) -> bool:
    """Does the configuration's value lie near what the written terms can give (within their rounding's span, or ten
    of the result's units)?  When every exact value is far from both (`0.3655 + 0 + 0.3655 + 0.1778 = 0.9086` judged
    under a guessed configuration whose entry there is 0.5), the trace says nothing of this line, and the printed
    result is judged against its rounded terms alone, as on a page with no configuration."""
    room = max(iv.hi - iv.lo, 20 * n.half)
    return any(iv.lo - room <= x <= iv.hi + room for x in exacts)


def carried_root(left, n: Num, face: float) -> bool:
    """-8/√294 ≈ -0.466 (exact -0.46657): a quotient of roots, said to be approximate, one unit of its last digit
    off.  Authors divide by roots they rounded and printed a line before (√14 ≈ 3.742, √21 ≈ 4.583 give -0.46648):
    the ≈ allows that, and a unit of three significant digits is no slip anyone would see."""
    return {"/", "sqrt"} <= _ops(left) and n.decimals is not None and \
        abs(face - n.value) <= 2 * n.half * (1 + 1e-9) and 2 * n.half <= 0.005 * abs(face)


def cut_off(left, n: Num, face: float) -> bool:
    """exp(0.5) = 1.648 (1.64872): a value with no finite decimal form, its digits cut off after the third rather
    than rounded, as many authors write them; the digits printed are all right (√2 = 1.415 is wrong either way)."""
    if n.decimals is None or n.decimals < 2 or not _ops(left) & {"exp", "sqrt", "log", "ln"}:
        return False
    cut = math.trunc(face * 10 ** n.decimals) / 10 ** n.decimals
    return abs(cut - n.value) < 1e-9 * max(1.0, abs(face)) and abs(face - n.value) < 2 * n.half
