"""A size written again in another unit (`= 524,288 bytes = 512 KB`), or a size in one unit times a count
(`512 KB × 4096 = 2 GB`): the two sides are one quantity, so they must agree once the units are turned into bytes.

Pages count a kilobyte as 1000 or 1024 bytes, often both on one page, and a size is an estimate: the two sides
agree when some choice of those bases brings them within 5% (or within the printed value's last digit).  Only a
near miss is a slip (twice the size included: `≈ 1 GB` for 2 GiB): sides more than a factor of two apart are two
quantities written side by side (`4 bytes = 28 GB` for one parameter and the whole model), not one size rewritten.
"""

from __future__ import annotations

import re

from .. import numbers as nb
from ..objects import ExprPart, LabelPart
from ..report import Finding
from .common import _chain_text

# a unit of size: bytes, or a decimal or binary prefix and B; a bare `B` (7B parameters) and a lower-case `b` (Mb:
# megabits or a sloppy megabyte) are left alone, and so are bits (the statement reader keeps no bits with a number)
_UNIT = r"(?:[kKMGTP]i?B|bytes?)"
_UNIT_END = re.compile(r"(?<![A-Za-z])(" + _UNIT + r")\s*[.,;]?\s*$")
_NUM = r"(\d+(?:,\d{3})*(?:\.\d+)?(?:\^\d{1,2})?)"          # (a factor may be a power: 512^2)
_TIMES = r"\s*[*×x·]\s*"
# `512 KB × 4096`, `4096 × 512 KB`: one size and counts multiplied
_SIZED_PRODUCT = re.compile(r"^\s*(?:" + _NUM + _TIMES + r")*" + _NUM + r"\s*(" + _UNIT + r")(?:" + _TIMES + _NUM
                            + r")*\s*$")
# a size glued to its unit, which the reader leaves as words (`19GB`, `536MB (每层)`), a remark in brackets after it
# (or a few words after it, with no number among them: `= 52GB in all`, `= 295 TB and that is clearly impossible`,
# `= 6 GB in fp32`: a word may carry digits after its first letter), or what it is per (`= 320 KB / token`)
_GLUED = re.compile(r"^\s*" + _NUM + r"\s*(" + _UNIT + r")\s*(?:[(（][^()（）]*[)）]|\s*/\s*[^\W\d_]+|"
                    r"(?:\s+[^\W\d_][^\W_]*){1,6})?\s*[.,;。]?\s*$")
# a factor as the tail reads it: a power among them (70 × 10^9 × 2 bytes), or billions (70B × 2 bytes)
_D = r"\d[\d,.]*(?:\^\d{1,2}|\s?B(?:\s+param(?:eter)?s)?)?"
_SIZED_TAIL = re.compile(r"(?<![\d.,^])" + _D + r"\s*(?:[*×·]\s*" + _D + r"\s*)*(?:" + _UNIT + r")\s*[*×·]\s*" + _D +
                         r"$|(?<![\d.,^])" + _D + r"\s*(?:[*×·]\s*" + _D + r"\s*)+(?:" + _UNIT + r")$")
# a count of parameters in billions before a factor (`70B × 2 bytes`, `7B params × 2 bytes`): 70 × 10^9
_BILLIONS = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)\s?B(?:\s+param(?:eter)?s)?(?=\s*[*×·])")
# a remark in brackets at the end of a side (`2 × 28 × 8 × 128 × 2 bytes (fp16)`): what was counted, no number of it
_REMARK_END = re.compile(r"\s*[(（][^()（）]*[)）]$")
_PREFIX = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5}


def _bytes_per(unit: str, base: float) -> float:
    """What one of the unit holds in bytes, a kilobyte counted as `base` bytes (a KiB is 1024 bytes always)."""
    if unit.startswith("byte"):
        return 1.0
    return (1024.0 if unit[1:2] == "i" else base) ** _PREFIX[unit[0]]


def unit_of(text: str) -> str | None:
    """The unit of size a part's text ends with (`524288 bytes`, `0.5 MB`), else None."""
    m = _UNIT_END.search(text or "")
    return m.group(1) if m and re.search(r"\d\s*" + re.escape(m.group(1)), text) else None


def sized_left(part) -> tuple[float, str, bool, float] | None:
    """The value and unit of the left side, whether it is a product, and how far its size may be from what it
    rounds (a share of it): a number with its unit (`524288 bytes`), or counts multiplied with one unit among them
    (`2 × 32 × 4096 × 2 bytes`, `512 KB × 4096`; the latter a label part, since the unit in the middle stops the
    expression)."""
    # (a remark in brackets after the unit says what was counted: `2 × 28 × 8 × 128 × 2 bytes (fp16)`)
    text = _BILLIONS.sub(r"\1 × 10^9", _REMARK_END.sub("", (getattr(part, "text", "") or "").rstrip(" .,;")))
    m = _SIZED_PRODUCT.match(text)
    if m is None and getattr(part, "expr", None) is None:
        # words before the product in one label part ("... would need 4 × 50GB"): the product at its end
        m = _SIZED_TAIL.search(text)
        text = m.group(0) if m is not None else text
        m = _SIZED_PRODUCT.match(text) if m is not None else None
    if m is None:
        return None
    unit = next(g for g in m.groups()[::-1] if g and not g[0].isdigit())
    numbers = re.findall(_NUM, text.replace(unit, " "))
    sized = re.search(_NUM + r"\s*" + re.escape(unit), text)
    value = 1.0
    try:
        for number in numbers:
            base, _, power = number.replace(",", "").partition("^")
            value *= float(base) ** int(power or 1)
    except (OverflowError, ValueError):
        return None
    return value, unit, len(numbers) > 1 or "^" in text, _half_share(sized.group(1) if sized else "", unit)


def _half_share(number: str, unit: str) -> float:
    """How far the size before its unit may be from what it rounds (half its last digit), as a share of it: the
    counts multiplied with it are exact, and so is a count of bytes (`2 bytes`)."""
    if unit.startswith("byte") or not number or "^" in number:
        return 0.0
    digits = number.replace(",", "")
    value = float(digits)
    if value >= 2 and value.is_integer() and int(value) & (int(value) - 1) == 0:
        return 0.025            # `4 KB` for 4096 bytes: a power of two is exact, in either base (1024/1000)
    step = 10.0 ** -len(digits.partition(".")[2])
    return 0.5 * step / value if value > 0 else 0.0


def sized_right(part, line: int, left_unit: str | None = None):
    """The printed size on the right of a relation and its unit: a number part with a unit after it, or a size glued
    to its unit that the reader left as words; else None.  left_unit: the unit of a product of sizes on the left
    that the reader left as words (`12 × 512^2 × 4\\text{ bytes}`), which a bare number after it keeps."""
    expr = getattr(part, "expr", None)
    if expr is not None:
        n, unit = nb.plain_number(expr), unit_of(getattr(part, "text", "")) or left_unit
        return (n, unit) if n is not None and unit is not None else None
    m = _GLUED.match(getattr(part, "text", "") or "")
    if m is None or "^" in m.group(1):
        return None             # (`10^9 byte` is a power, not a printed size)
    try:
        n = nb.Num.parse(m.group(1).replace(",", ""))
    except ValueError:
        return None
    return (nb.Num(n.value, n.text, n.lo, n.hi, line, n.decimals), m.group(2)) if n is not None else None


def glued_sizes(parts) -> bool:
    """Whether a line equates sizes the reader left as words (`536MB × 32 = 17GB`): arithmetic to judge all the
    same."""
    return any(sized_left(a) and sized_right(b, 0) for a, b in zip(parts, parts[1:]))


def counted_bytes(part) -> tuple[float, str, bool, float] | None:
    """A product of plain counts with no unit (`1 × 2048 × 32 × 4096 × 2`): bytes counted, as a size after it says."""
    expr = getattr(part, "expr", None)
    if expr is None or nb.has_symbols(expr) or not isinstance(expr, nb.Op) or expr.op != "*":
        return None
    try:
        value = nb.face(expr)
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return None
    return (float(value), "bytes", True, 0.0) if value is not None else None


def converted(left: tuple[float, str, bool, float], n, right_unit: str, approx: bool = False) \
        -> tuple[float, str] | None:
    """The right side's value in its own unit as the left side gives it, with a remark that names both bases
    where they differ, where the printed `n` misses it by a slip (within a factor of two); None where the two agree
    under some bases, or are too far apart to be one size.  A count times a size in the unit of the result
    (`4 × 536MB = 2144MB`) turns no unit, so no base excuses a miss: it holds to the printed digits (and the
    size's own rounding), unless the line says it is rough (approx)."""
    value, unit, product, share = left
    if value <= 0 or n.value <= 0 or (unit == right_unit and not product):
        return None
    if unit == right_unit and not approx:
        if abs(value - n.value) <= n.half + value * share + 1e-9 * value or not 0.5 < value / n.value < 2:
            return None
        return value, f"{_short(value)} {right_unit}"
    # one base on both sides first (a page that counts 1024 bytes to the KB does so throughout), then mixed
    same = [value * _bytes_per(unit, base) / _bytes_per(right_unit, base) for base in (1000.0, 1024.0)]
    mixed = [value * _bytes_per(unit, a) / _bytes_per(right_unit, b) for a, b in ((1000.0, 1024.0), (1024.0, 1000.0))]
    # (every count of bytes to the kilobyte is tried, so `=` leaves 1% beyond the printed digits; `≈`, 5%)
    slack = 0.05 if approx else 0.01
    if any(abs(x - n.value) <= max(n.half, slack * max(x, n.value)) for x in same + mixed):
        return None
    best = min(same, key=lambda x: abs(x / n.value - 1))
    if not 0.5 - 1e-9 <= best / n.value <= 2 + 1e-9:     # (twice the printed size is a slip: `≈ 1 GB` for 2 GiB)
        return None
    said = f"{_short(same[0])} {right_unit}"
    if abs(same[1] / same[0] - 1) > 1e-9:
        said += f" counting 1000 bytes to the kilobyte, {_short(same[1])} counting 1024"
    return best, said


def _product_text(part) -> str:
    """The left side as a finding names it: the product at the end of words (`8 × 536MB` of `takes 8 × 536MB`)."""
    text = _REMARK_END.sub("", (getattr(part, "text", "") or "").strip().rstrip(" .,;"))
    m = _SIZED_TAIL.search(text) if getattr(part, "expr", None) is None else None
    return re.sub(r"\s*\*\s*", " × ", m.group(0) if m else text)[:60]


def _short(x: float) -> str:
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"


def judge_sizes(j, c) -> int:
    """A size written again in another unit, or a size times a count, against the printed size after it
    (`= 524288 bytes = 512 KB`, `512 KB × 4096 = 2 GB`): one finding per slipped size, merged with the line's
    arithmetic (j: the judge, c: the chain).  Returns how many sizes it judged."""
    judged = 0
    for k, (p1, p2) in enumerate(zip(c.parts, c.parts[1:])):
        if (c.rels[k] if k < len(c.rels) else "=") not in ("=", "≈"):
            continue
        left = sized_left(p1)
        right = sized_right(p2, c.place.line, left[1] if left and isinstance(p1, LabelPart) and left[2] else None)
        if right is None:
            continue
        n, unit = right
        left = left or (counted_bytes(p1) if isinstance(p2, LabelPart) else None)
        if left is None or (left[1] == unit and isinstance(p1, ExprPart)):
            continue            # the same unit on both sides of an expression: the arithmetic's to judge
        j.n_numbers += 1
        judged += 1
        rough = c.context.approx or "≈" in c.rels[:k + 1] or \
            re.search(r"[~～∼]\s*$", getattr(p1, "text", "") or "")
        slip = converted(left, n, unit, bool(rough))
        if slip is not None:
            shown = n.rounded(slip[0]) if n.decimals or float(slip[0]).is_integer() else f"{slip[0]:.3g}"
            j.add(Finding(n.line or c.place.line, c.place.cell, _chain_text(c), n.text, slip[0], shown, "size",
                          f"arithmetic slip: {_product_text(p1)} is {slip[1]}", "arithmetic"), merge=True)
    return judged
