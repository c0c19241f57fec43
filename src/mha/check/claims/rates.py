"""A time worked out as an amount over a rate: bytes over a bandwidth (`140 GB / 3.35 TB/s ≈ 42 ms`), operations over
a throughput (`1.1 × 10^14 FLOPs / 989 TFLOP/s ≈ 0.12 s`).  Notes on serving models reason this way (a decode step
reads every weight once), and the reader leaves such sides as words, since the units stand between the numbers.

The amount may be a product of counts (`2 × 7 × 10^9 × 4096 FLOPs`); each unit's prefix is a power of 1000, and for
bytes of 1024 too (a page may count a GB either way, so every pairing is tried).  A time is an estimate: under ≈ it
holds within 5% or the rounding of its digits (a whole number ending in zeros stands for its leading digits), under
= within 1% beyond its digits; one more than twenty times off is taken for another quantity, not a slip.  Anything
else on the sides (words between, a second division) leaves the line alone.

A size over a size, or a time over a time, is a count: how many requests fit (`9 GB / 0.5 GB per request ≈ 18`, cut
down or rounded), how many times faster (`120 ms / 40 ms = 3x`).
"""

from __future__ import annotations

import re

from ..objects import Chain
from ..report import Finding
from .common import _chain_text
from .setequal import SECONDS_IN

_P = "kKMGTP"
_POWER = {"": 0, "k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5}
_FACTOR = r"\d+(?:,\d{3})*(?:\.\d+)?(?:\^\d{1,2})?"
_TIMES = r"\s*[*×·]\s*"
# amount / rate: `140 GB/3.35 TB/s`, `2*7*10^9*4096 FLOPs/989 TFLOP/s`
_RATIO = re.compile(r"(?<![\d.,^])(?P<amount>" + _FACTOR + r"(?:" + _TIMES + _FACTOR + r")*)\s*"
                    r"(?P<u1>[" + _P + r"]?i?B|bytes|[" + _P + r"]?FLOPs?)\s*/\s*(?P<rate>" + _FACTOR + r")\s*"
                    r"(?P<u2>[" + _P + r"]?i?B/s|[" + _P + r"]?FLOP/s|[" + _P + r"]?FLOPS|[" + _P + r"]?FLOPs/s)"
                    r"\s*$")
# one size over another, or one time over another: a count (`9 GB / 0.5 GB per request ≈ 18`, `120 ms / 40 ms = 3x`)
_SIZE_UNIT = r"[" + _P + r"]?i?B|bytes"
_TIME_UNIT = r"ns|μs|µs|us|ms|s|sec"
_QUOTIENT = re.compile(r"(?<![\d.,^])(?P<amount>" + _FACTOR + r")\s*(?P<u1>" + _SIZE_UNIT + "|" + _TIME_UNIT +
                       r")\s*/\s*(?P<rate>" + _FACTOR + r")\s*(?P<u2>" + _SIZE_UNIT + "|" + _TIME_UNIT +
                       r")(?:\s+per\s+[^\W\d_]+)?\s*$")
_COUNT = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?:x|×)?(?:\s+[^\W\d_][^\W_]*.*)?\s*[.,;]?\s*$")
# the time after it: `42 ms`, `0.12 s per token`, `≈ 6 seconds`
_TIME = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<u>ns|μs|µs|us|ms|s|sec|secs|seconds?|milliseconds?|minutes?|min)"
                   r"(?![A-Za-z])")


def _side(part) -> str:
    """The part's text, a TeX fraction written as a division (`\\frac{140 GB}{3.35 TB/s}`)."""
    return re.sub(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2", getattr(part, "text", "") or "")


def _product(text: str) -> float:
    value = 1.0
    for factor in re.split(_TIMES, text.strip()):
        base, _, power = factor.replace(",", "").partition("^")
        value *= float(base) ** int(power or 1)
    return value


def _scales(unit: str) -> list[float]:
    """What one of the unit counts in bytes or operations: each base its prefix may be a power of."""
    prefix = unit[0] if unit[0] in _POWER and unit[:5] not in ("bytes", "FLOPs", "FLOP/", "FLOPS") else ""
    k = _POWER[prefix]
    if "i" in unit[:2]:
        return [1024.0 ** k]
    return sorted({1000.0 ** k, 1024.0 ** k}) if "B" in unit and "FLOP" not in unit else [1000.0 ** k]


def _holds(n: float, text: str, x: float, rough: bool) -> bool:
    digits = text.split(".")[1] if "." in text else ""
    half = 0.5 * 10.0 ** -len(digits)
    if not digits and rough:
        zeros = len(text) - len(text.rstrip("0"))
        half = 0.5 * 10.0 ** min(zeros, len(text) - 1)           # `≈ 40 ms` stands for 35 to 45
    return abs(x - n) <= half + (0.05 if rough else 0.01) * abs(n) + 1e-12


def _times(m, t) -> list[float] | None:
    """The times `amount / rate` gives in the unit printed (one base on both sides first, as a finding names it:
    GB over TB/s is 1000 over 1000; then mixed), or None where bytes meet a throughput of operations."""
    if ("B" in m["u1"]) != ("B" in m["u2"]):
        return None
    amount, rate, unit = _product(m["amount"]), _product(m["rate"]), SECONDS_IN[t["u"]]
    return [amount * a / (rate * r) / unit for a, r in zip(_scales(m["u1"]), _scales(m["u2"]))] + \
        [amount * a / (rate * r) / unit for a in _scales(m["u1"]) for r in _scales(m["u2"])]


def _kind(unit: str) -> str:
    return "size" if "B" in unit or unit == "bytes" else "time"


def _counts(m, t) -> list[float] | None:
    """The counts `size / size` or `time / time` gives, or None where the two are not of one kind."""
    if _kind(m["u1"]) != _kind(m["u2"]):
        return None
    amount, part = _product(m["amount"]), _product(m["rate"])
    if _kind(m["u1"]) == "size":
        return [amount * a / (part * b) for a, b in zip(_scales(m["u1"]), _scales(m["u2"]))]
    return [amount * SECONDS_IN.get(m["u1"], 1.0) / (part * SECONDS_IN.get(m["u2"], 1.0))]


def _judge(j, c: Chain, left: re.Pattern, right: re.Pattern, values, cut_down: bool) -> int:
    """Each `left (=|≈) right` pair of the chain's parts, the printed number of `right` against what `values` gives
    from `left` (j: the judge); a count may be cut down.  Returns how many it judged."""
    judged = 0
    for k, (p1, p2) in enumerate(zip(c.parts, c.parts[1:])):
        rel = c.rels[k] if k < len(c.rels) else "="
        m, t = left.search(_side(p1)), right.match(getattr(p2, "text", "") or "")
        if rel not in ("=", "≈") or m is None or t is None or float(t["n"]) == 0:
            continue
        try:
            got = values(m, t)
        except (OverflowError, ValueError, ZeroDivisionError):
            continue
        if not got:
            continue
        n, best = float(t["n"]), got[0]
        rough = rel == "≈" or c.context.approx or "≈" in c.rels[:k]
        holds = any(_holds(n, t["n"], x, bool(rough)) or cut_down and n == int(x) for x in got)
        if not holds and not 0.05 < best / n < 20:
            continue                    # far beyond a slip of the arithmetic: the line counts something else
        j.n_numbers += 1
        judged += 1
        if holds:
            continue
        d = len(t["n"].split(".")[1]) if "." in t["n"] else 0
        shown = f"{best:.{d}f}" if round(best, d) != 0 else f"{best:.3g}"      # as the number was printed
        said = re.sub(r"\s*/\s*", " / ", re.sub(r"\s*[*×·]\s*", " × ", m.group(0).strip())).replace(" / s", "/s")
        unit = f" {t['u']}" if "u" in t.groupdict() else ""
        j.add(Finding(c.place.line, c.place.cell, _chain_text(c), t["n"], best, shown, "size",
                      f"arithmetic slip: {said} is {best:.3g}{unit}", "arithmetic"), merge=True)
    return judged


def judge_rates(j, c: Chain) -> int:
    """Each `amount / rate (=|≈) time` in the chain, against the time printed.  Returns how many it judged."""
    return _judge(j, c, _RATIO, _TIME, _times, cut_down=False)


def judge_quotients(j, c: Chain) -> int:
    """Each `size / size` or `time / time` (=|≈) count in the chain: how many fit, how many times faster.  A count
    of things that fit may be cut down (`80 GB / 3 GB = 26 sequences`).  Returns how many it judged."""
    return _judge(j, c, _QUOTIENT, _COUNT, _counts, cut_down=True)


def rated_times(parts) -> bool:
    """Whether a line works out a time from an amount and a rate (`140 GB / 3.35 TB/s ≈ 42 ms`): arithmetic to
    judge, though the reader left both sides as words."""
    return any(_RATIO.search(_side(a)) and _TIME.match(getattr(b, "text", "") or "") or
               _QUOTIENT.search(_side(a)) and _COUNT.match(getattr(b, "text", "") or "")
               for a, b in zip(parts, parts[1:]))
