"""Bare numbers set equal in a chain that computes nothing: a supposition written as an equation ("it would need
3.1 = 2.7, which is impossible"), or values set side by side under columns (`= 0.85   = 0.60   = 0.55`).  Neither
is arithmetic to judge; a number copied with a slip (0.4512 = 0.4521) stays within a few percent and is judged.
And the conventions of how a result is written that make a printed value right where the bare arithmetic would call
it wrong: a total in a larger unit than its terms count (`7\\times10^9 \\times 16 = 112` GB), M as 2²⁰, a count
floored or rounded up (tiles of `\\frac{1793}{256} × \\frac{1793}{128} = 120`), a time in its unit, a first term of a
sum after it, a number grouped with spaces, a dot that parts thousands (`50.000^2`), everything after `/` as the
divisor.  Last, the small tests on two bare numbers the arithmetic judge shares (far apart, a tilde between them,
orders of magnitude apart in e-notation, a grid split into windows).
"""

from __future__ import annotations

import math
import re

from .. import numbers as nb
from ..objects import Chain, ExprPart


def two_givens(left, right) -> bool:
    """Two bare numbers far apart (3.1 = 2.7): no rounding and no computation, so a condition or a supposition
    written as an equation; a number copied with a slip (0.4512 = 0.4521) stays within a few percent."""
    a, b = nb.plain_number(left), nb.plain_number(right)
    return a is not None and b is not None and math.isfinite(a.value) and math.isfinite(b.value) and \
        abs(a.value - b.value) > 0.05 * max(abs(a.value), abs(b.value))


def bare_run(values) -> bool:
    """Three or more bare numbers in a row of the chain (`= 0.85 = 0.60 = 0.55`): columns' values set side by side,
    not one quantity rewritten."""
    run = best = 0
    for _, p, _ in values:
        run = run + 1 if nb.plain_number(p.expr) is not None else 0
        best = max(best, run)
    return best >= 3


# a unit right after a number: GB, MiB, KB, MFLOPs, "billion", "M" (parameters), 亿
_UNIT_AFTER = (r"\s*\$?\s*(?:(?:\\[ ,;:!]|~|\\quad)\s*)*(?:\\(?:text|mathrm)\{\s*)?(?:[kKMGTP]i?B\b|[kKMGTP](?:FLOPS?|FLOPs?|flops?)\b|"
               r"(?:[KMGTP]|bn|B)\b|billion|million|thousand|trillion|亿|万)")
_PREFIX = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "thousand": 1, "million": 2, "billion": 3, "bn": 3,
           "trillion": 4}


def in_larger_unit(n, got: float, doc, place, rough: bool = True) -> bool:
    """Is the printed result the computed one in a unit a thousandfold (or 1024-fold) larger, with that unit written
    right after it on its line (`7\\times10^9 \\times 16 = 112` GB: 1.12e11 bytes are 112 GB)?  A whole number
    there stands for its unit (131 KB for 131,072 bytes), and a size is an estimate to a few percent (100 MB for
    100,663,296 bytes; a factor of two, or the wrong power, is still a slip).  rough: the line says ≈; an `=` line
    is held to 1% beyond its printed digits (`8192 × 57,344 = 489.8` MB for 469.8 is a slip)."""
    text = _result_text(n, doc, place)
    if text is None or n.value == 0 or got == 0:
        return False
    if not re.search(re.escape(n.text) + _UNIT_AFTER, text):
        return False
    slack = max(n.half, nb.half_unit(n.decimals or 0), (0.05 if rough else 0.01) * abs(n.value))
    if n.decimals == 0 and not n.exact and re.fullmatch(r"[-−+]?\d+", n.text.strip()):
        # a whole number under ≈ already stands for its unit (arithterms.at_precision: `≈ 1` is 0.5 to 1.5); its
        # half-unit again would let `≈ 1 GB` pass for 2 GiB
        slack = (0.05 if rough else 0.01) * abs(n.value)
    return any(n.contains(got / base ** k, slack) for base in (1000.0, 1024.0) for k in range(1, 6))


# words that count the things a formula sizes one of (`these two matrices need 4096^2 × 2 ≈ 64MB`)
_COUNT_WORDS = {2: r"\b(?:both|two|pair of|deux|zwei|dos|ambos|dois|duas)\b|两个|两者|這兩|这两|兩個|二つ|両方|두 개",
                3: r"\b(?:three|trois|drei|tres|três)\b|三个|三個|三つ",
                4: r"\b(?:four|quatre|vier|cuatro|quatro)\b|四个|四個|四つ"}


def counted_in_words(n, got: float, doc, place, rough: bool) -> bool:
    """`这两个矩阵就需要 4096^2 × 2 ≈ 64MB` (these two matrices need ...): the formula sizes one of the things the words
    before it count, and the printed size is all of them (64 MiB for two of 32 MiB)."""
    text = _result_text(n, doc, place)
    if text is None or n.text not in text or got == 0:
        return False
    head = text[:text.index(n.text)]
    line = n.line if getattr(n, "line", 0) and n.line >= place.line else place.line
    before = doc.line_text(place, line - 1) or ""
    if before.strip() and not re.search(r"[.!?。！？:：]\s*$", before):
        head = before + " " + head      # the sentence began on the line before (Markdown wraps it)
    counts = [k for k, words in _COUNT_WORDS.items() if re.search(words, head, re.IGNORECASE)]
    return any(in_larger_unit(n, k * got, doc, place, rough) or n.contains(k * got) for k in counts)


def _result_text(n, doc, place) -> str | None:
    """The text of the line the result is printed on: its own, where a chain goes on over lines (`× 2 bytes` and,
    under it, `= 2048 × ... × 2 = 268 MB`), else the chain's; None where the page's line is not at hand."""
    line = n.line if getattr(n, "line", 0) and n.line >= place.line else place.line
    return doc.line_text(place, line)


_BINARY = {"K": 1, "k": 1, "M": 2, "G": 3, "B": 3, "T": 4}


def binary_magnitude(n, got: float) -> bool:
    """`151936 × 1024 = 148.375 M`: a count written in a letter that the page takes as a power of 1024 (148.375 × 2²⁰
    is 155,582,464), as pages that count parameters the way memory is counted do."""
    parts = n.text.rsplit(" ", 1)
    k = _BINARY.get(parts[-1]) if len(parts) == 2 else None
    if not k or got == 0:
        return False
    return n.contains(got * (1000.0 / 1024.0) ** k)


# what a whole count is of (warps, blocks, tokens, 个): a quotient of such things is floored, not rounded
_COUNTED = re.compile(r"\s*\$?\s*(?:个|块|张|次|卡|线程|warps?\b|blocks?\b|tiles?\b|tokens?\b|heads?\b|GPUs?\b|"
                      r"threads?\b|steps?\b|rows?\b|chunks?\b)")


def floored_count(n, got: float, doc, place) -> bool:
    """`65536/(32×56) = 36 个warp`, `1000 + (0.35 × 2048) = 1716 tokens`: a whole count worked out by arithmetic
    that leaves a fraction, cut down (36.57 warps fit as 36) or rounded up (2.1 blocks take 3); only where the word
    after the number says what is counted."""
    if n.decimals is not None or got < 1 or n.value not in (math.floor(got), math.ceil(got)):
        return False
    text = _result_text(n, doc, place)
    return text is not None and re.search(re.escape(n.text) + _COUNTED.pattern, text) is not None


# a unit of time after a result, and how many seconds it holds (a year of 365.25 days); claims/rates.py too
SECONDS_IN = {"years": 3.15576e7, "year": 3.15576e7, "yrs": 3.15576e7, "days": 86400.0, "day": 86400.0,
              "hours": 3600.0, "hour": 3600.0, "hrs": 3600.0, "h": 3600.0, "minutes": 60.0, "minute": 60.0,
              "mins": 60.0, "min": 60.0, "seconds": 1.0, "second": 1.0, "secs": 1.0, "sec": 1.0, "s": 1.0,
              "milliseconds": 1e-3, "millisecond": 1e-3, "ms": 1e-3, "μs": 1e-6, "us": 1e-6, "µs": 1e-6, "ns": 1e-9,
              "天": 86400.0, "小时": 3600.0, "分钟": 60.0, "秒": 1.0, "毫秒": 1e-3}
_TIME_NAMES = "|".join(sorted(map(re.escape, SECONDS_IN), key=len, reverse=True))
_TIME_AFTER = re.compile(r"\s*\$?\s*(?:(?:\\[ ,;:!]|~|\\quad)\s*)*(?:\\(?:text|mathrm)\{\s*)?(" + _TIME_NAMES +
                         r")(?![A-Za-z])")


_BITS = r"(?<![a-z])bits?(?![a-z])|比特|ビット|비트"
_BYTES = r"(?<![a-z])(?:bytes?|bájt|octets?)(?![a-z])|字节|位元组|バイト|바이트"


def in_bits(left_text: str, n, got: float, doc, place) -> bool:
    """`4 × 256 bit = 128 bájt`: bits counted and the result said in bytes (an eighth of the count); `-log(1/2^4) =
    4 bit`: information in bits, the logarithm's base 2 (the page's log is log₂)."""
    text = _result_text(n, doc, place) or ""
    said = r"(?<![\d.])" + re.escape(n.text) + r"\s*\$?\s*(?:\\[ ,;:!]\s*)*(?:\\(?:text|textrm|mathrm)\{\s*)?"
    if re.search(_BITS, left_text, re.I) and re.search(said + "(?:" + _BYTES + ")", text, re.I) and \
            n.contains(got / 8):
        return True
    return "log" in left_text and re.search(said + "(?:" + _BITS + ")", text, re.I) is not None and \
        n.contains(got / math.log(2))


def written_time(n, doc, place) -> tuple[float, str] | None:
    """The seconds a unit of time written right after the result holds (`= 12ms`: 10⁻³), with the unit, or None: a
    slip is then said in that unit."""
    text = _result_text(n, doc, place)
    m = re.search(re.escape(n.text) + _TIME_AFTER.pattern, text or "")
    return (SECONDS_IN[m.group(1)], m.group(1)) if m is not None and SECONDS_IN[m.group(1)] != 1.0 else None


def in_time_unit(n, got: float, doc, place) -> bool:
    """`6.3e24 / 4.59e14 = 435 years`, `= 2.5 ms`, `3 * 2 * 80 / 212 = 2 sec`: a time with its unit after it, the
    quotient taken as seconds and turned into that unit (or already in it), to one unit of the last digit printed
    (a time is an estimate, often cut down: `= 2.5 ms` for 2.57 ms)."""
    text = _result_text(n, doc, place)
    if text is None:
        return False
    m = re.search(re.escape(n.text) + _TIME_AFTER.pattern, text)
    units = {u for u in re.findall(r"\d" + _TIME_AFTER.pattern, text)}
    if m is None and len(units) != 1:
        return False        # (`= 0.03 + 0.75 = 0.78 ms`: the line's one unit of time is every term's)
    unit = m.group(1) if m is not None else units.pop()
    room = max(2 * n.half, 1.0 if n.decimals is None else 0.0, 0.005 * abs(n.value))
    return any(abs(x - n.value) <= room for x in (got, got / SECONDS_IN[unit]))


def first_term(n, doc, place) -> bool:
    """`= 252 μs + 39.4 μs = 291.4 μs`: the printed number is the first term of a sum written after it (its unit
    between), not the value of what stands before the equals sign."""
    text = _result_text(n, doc, place)
    return text is not None and re.search(re.escape(n.text) + r"\s*(?:\\[ ,;:!]\s*)*(?:\\(?:text|mathrm)\{[^{}]*\}|"
                                                           r"[A-Za-zμµ]+)\s*[+]\s*\d", text) is not None


def cut_at_a_group(n, doc, place) -> bool:
    """`= 6, 738, 415, 616.`: a whole number grouped by commas with spaces after them, of which the reader kept
    the first group only; the printed value is all the groups, not the one read."""
    text = _result_text(n, doc, place)
    return n.decimals is None and text is not None and \
        re.search(r"(?<![\d.])" + re.escape(n.text) + r"(?:,\s\d{3}){2,}(?!\d)", text) is not None


def after_a_group(part, line: str) -> bool:
    """`+ 5, 120 + 163,840,000 = ...`: a side that starts with the last group of a number grouped by a comma and a
    space (5,120), split there by the reader, so that it holds only the tail of the sum."""
    m = re.match(r"\s*(\d{3})(?!\d)", getattr(part, "text", "") or "")
    return m is not None and re.search(r"\d,\s+" + m.group(1) + r"(?![\d.])", line or "") is not None


def grouped_divisor(text: str, n) -> bool:
    """`16*20*28 / 2*2 = 2,240`: everything after the division sign meant as the divisor (8960 chips over hosts of
    2×2), a notation, not a slip: the printed value is that reading's."""
    m = re.fullmatch(r"\s*([\d.]+(?:\s*[*×·]\s*[\d.]+)*)\s*/\s*([\d.]+(?:\s*[*×·]\s*[\d.]+)+)\s*", text or "")
    if m is None:
        return False
    num, den = (math.prod(float(x) for x in re.split(r"\s*[*×·]\s*", g)) for g in m.groups())
    return den != 0 and n.contains(num / den)


def thousands_point(n, got: float) -> bool:
    """`768 × 768 = 589.824`: a point between groups of three digits that parts thousands (as Portuguese, German or
    Italian pages write them, often only in a code block the decimal-comma reading leaves alone).  The whole
    number the terms give, read with its groups parted by points, is the printed text."""
    if not re.fullmatch(r"[1-9]\d{0,2}\.\d{3}", n.text) or got != round(got) or abs(got) < 1000:
        return False
    return f"{int(round(abs(got))):,}".replace(",", ".") == n.text


def written_unit(n, doc, place) -> tuple[float, str] | None:
    """The power of ten a unit written right after the result names (`= 67` MFLOPs: 10⁶), with the unit, or None:
    the result is then judged in that unit."""
    text = _result_text(n, doc, place)
    if text is None:
        return None
    m = re.search(re.escape(n.text) + "(" + _UNIT_AFTER + ")", text)
    if m is None:
        return None
    unit = re.sub(r"^[\s$]*(?:(?:\\[ ,;:!]|~|\\quad)\s*)*(?:\\(?:text|mathrm)\{\s*)?", "", m.group(1)).strip()
    k = (_PREFIX.get(unit) or _PREFIX.get(unit[:1])) if unit != "B" else None
    base = 1024.0 if re.match(r"[kKMGTP]iB", unit) else 1000.0          # MiB: 2^20, MB: 10^6
    return (base ** k, unit) if k else None


def total_worked_elsewhere(chains, c, n) -> object | None:
    """Another chain of the page that works out the same total with terms of its own and lands on the printed
    value (`acc = 0.135×2.135 + 1.150 = 1.438` before `加权和 = 0.135+2+0+1+0+0.150 = 1.438`): the chain it belongs to,
    else None.  Then the total is corroborated, and a sum whose written terms miss it has a wrong term."""
    if (nb.significant_digits(n) or 0) < 3:
        return None             # a total as common as 1 or 0.5 is worked out anywhere: no corroboration
    for other in chains:
        if other is c or len(other.parts) < 2:
            continue
        last = nb.plain_number(getattr(other.parts[-1], "expr", None))
        before = getattr(other.parts[-2], "expr", None)
        if last is None or last.text != n.text or before is None or nb.plain_number(before) is not None:
            continue
        try:
            got = nb.evaluate(before)
        except (ArithmeticError, OverflowError, ValueError, TypeError, IndexError):
            continue
        if got.lo - n.half <= n.value <= got.hi + n.half:
            return other
    return None


def whole_quotients(e, n) -> bool:
    """`\\frac{1793}{256} × \\frac{1793}{128} = 120` tiles: a count of whole blocks, each quotient rounded up (8 × 15)
    or cut down before the product; the printed whole number is that, and the bare quotients' product is not (a
    convolution's output width, `(64 - 5) / 2 + 1 = 30`, divides so too)."""
    if n.decimals is not None or not isinstance(e, nb.Op):
        return False

    def whole(x, step):
        if isinstance(x, nb.Lit):
            return x.num.value
        if not isinstance(x, nb.Op) or x.op not in ("+", "*", "/", "neg"):
            raise ArithmeticError
        args = [whole(a, step) for a in x.args]
        if x.op == "neg":
            return -args[0]
        if x.op == "+":
            return sum(args)
        if x.op == "*":
            return math.prod(args)
        if args[1] == 0:
            raise ArithmeticError
        return step(args[0] / args[1])

    try:
        return any(whole(e, step) == n.value for step in (math.ceil, math.floor))
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False


def sci_apart(a, b) -> bool:
    """Two bare numbers set equal, one in scientific notation, a factor of ten or more apart: a reading of text run
    together, not an equation an author wrote."""
    x, y = nb.plain_number(a), nb.plain_number(b)
    if x is None or y is None or not re.search(r"\d[eE][-+−]?\d", x.text + " " + y.text):
        return False
    lo, hi = sorted((abs(x.value), abs(y.value)))
    return lo == 0 or hi >= 10 * lo


def split_into(c: Chain) -> bool:
    """A product of whole sizes, an arrow, and a smaller whole number (`64 \\times 64 \\rightarrow 64` windows): a
    grid cut into that many pieces, or a shape reshaped, not a product said to equal the number."""
    for k, r in enumerate(c.rels):
        if r != "→" or k + 1 >= len(c.parts) or not isinstance(c.parts[k], ExprPart):
            continue
        left, right = c.parts[k].expr, nb.plain_number(getattr(c.parts[k + 1], "expr", None))
        leaves = nb.leaves(left)
        if right is None or len(leaves) < 2 or not isinstance(left, nb.Op) or left.op != "*" or \
                not all(x.value == round(x.value) and x.value > 0 for x in leaves + [right]):
            continue
        if right.value < math.prod(x.value for x in leaves):
            return True
    return False


def negations(args) -> int:
    """How many of a product's factors are written with a minus before them."""
    return sum(1 for a in args if isinstance(a, nb.Op) and a.op == "neg" or
               isinstance(a, nb.Lit) and a.num.value < 0)


def tilde_between(line: str, p1, p2) -> bool:
    """Is the `≈` between the two written as a tilde in the line (`0.0001 ~ 0.001`), the way a range is written?"""
    a, b = (getattr(p, "text", "").strip() for p in (p1, p2))
    return bool(a and b) and re.search(re.escape(a) + r"\s*[~～∼]\s*" + re.escape(b), line) is not None


def hyphen_range(part) -> bool:
    """`0.88-2.15` (no spaces, the first below the second): a range of values, as measurements are quoted
    (`\\sim 0.88-2.15`\\%/K), not a subtraction whose result is negative."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\s*", getattr(part, "text", "") or "")
    return m is not None and float(m.group(1)) < float(m.group(2))


def far_apart(left, right) -> bool:
    """Two bare numbers a factor of two or more apart: no rounding of one gives the other (nor of 0 a number of 1 or
    more: `50         ≈ 0`, a table's row, its label and its value; 0.0001 ≈ 0 is a rounding)."""
    a, b = nb.plain_number(left), nb.plain_number(right)
    if a is None or b is None or not (math.isfinite(a.value) and math.isfinite(b.value)):
        return False
    if a.value * b.value == 0:
        return max(abs(a.value), abs(b.value)) >= 1
    if a.value * b.value < 0:
        return False
    return max(abs(a.value), abs(b.value)) >= 2 * min(abs(a.value), abs(b.value))


def nearer(a: float, b: float, n: float) -> bool:
    """Whether a lies nearer n than b does, as a ratio."""
    if a <= 0 or b <= 0 or n <= 0:
        return abs(a - n) < abs(b - n)
    return abs(math.log(a / n)) < abs(math.log(b / n))


_DOTTED = re.compile(r"\d{1,3}(?:\.\d{3})+")


def dotted_thousands(e, n) -> bool:
    """`50.000^2 = 2.5 × 10^9`: a number whose dot parts thousands (50 000, as Portuguese or German write it), read
    so, gives the printed result where the decimal reading does not."""
    dotted = [x for x in nb.leaves(e) if _DOTTED.fullmatch(x.text)]
    if not dotted:
        return False

    def whole(x):
        if isinstance(x, nb.Lit) and _DOTTED.fullmatch(x.num.text):
            v = float(x.num.text.replace(".", ""))
            return nb.Lit(nb.Num.exact_value(v, x.num.text.replace(".", ""), x.num.line))
        if isinstance(x, nb.Op):
            return nb.Op(x.op, tuple(whole(a) for a in x.args))
        return x

    try:
        return n.contains(float(nb.face(whole(e))))
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False
