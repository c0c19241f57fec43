"""A written sum whose terms are printed roundings of exponentials, totalled from the unrounded ones.

"2.72 + 20.09 + 7.39 = 30.19": the terms are e¹, e³ and e² at two decimals, and the author added e¹ + e³ + e²
(30.1929) before rounding, not the printed terms (30.20).  The total is the right one; holding it to its printed
terms would call a correct page wrong.  Only a sum whose every term is such a rounding, and whose exact total
rounds to the printed one, is let through; any other sum is judged as written.
"""
from __future__ import annotations

import math

from .. import numbers as nb
from ..numbers import Num

# e^{k/2} for k = -20 … 20: the small whole and half scores of hand-made examples
_SIMPLE = tuple(k / 2 for k in range(-20, 21))


def _exp_behind(x: Num, args: list[float]) -> float | None:
    """The exponential e^s (s a simple number or one printed in the document) that x is the rounding of, or None
    when x is none (e⁰ = 1 printed as 1.00 is its own exponential, exactly)."""
    if (x.decimals or 0) < 2:
        return None              # 0.2 is the rounding of too many numbers (e^{-1.5} among them) to say which
    for s in args:
        if abs(s) > 30:
            continue
        v = math.exp(s)
        if x.contains(v):
            return v
    return None


def exact_sum_of_rounded_exps(left, n: Num, printed: list[float]) -> bool:
    """Is `left` a sum of ≥ 2 printed numbers, each the rounding of an exponential e^s (s a simple half or whole
    number, or one of `printed`), whose unrounded sum is what n prints?"""
    if not isinstance(left, nb.Op) or left.op != "+":
        return False
    terms = [nb.plain_number(t) for t in nb.terms_of(left)]
    if len(terms) < 2 or any(t is None for t in terms):
        return False
    args = list(_SIMPLE) + [s for s in printed if s not in _SIMPLE]
    exps = [_exp_behind(t, args) for t in terms]
    if any(v is None for v in exps) or all(abs(v - t.value) < 1e-12 for v, t in zip(exps, terms)):
        return False
    return n.contains(sum(exps))


def printed_before(doc, place, limit: int = 400) -> list[float]:
    """The distinct numbers of the document's arrays printed before `place` (the nearest `limit` of them): the
    scores whose exponentials a later sum may add."""
    out: list[float] = []
    seen: set[float] = set()
    for a in sorted((a for a in doc.arrays if a.place.order < place.order), key=lambda a: a.place.order, reverse=True):
        for m in a.numbers:
            if m.value not in seen:
                seen.add(m.value)
                out.append(m.value)
        if len(out) >= limit:
            break
    return out[:limit]


def as_printed(t: Num, x: float) -> float:
    """x rounded the way t is printed (to its decimals; a whole number stays as it is when x is whole: e^0 = 1)."""
    if t.decimals is not None:
        return round(x, t.decimals)
    return x if abs(x - round(x)) < 1e-9 else float(round(x))
