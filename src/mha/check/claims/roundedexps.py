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
from ..objects import ArrayPart, Chain, ExprPart

# e^{k/2} for k = -20 … 20: the small whole and half scores of hand-made examples
_SIMPLE = tuple(k / 2 for k in range(-20, 21))


def _exp_behind(x: Num, exps: list[float]) -> float | None:
    """The exponential e^s (of `exps`: s a simple number or one printed in the document) that x is the rounding of,
    or None when x is none (e⁰ = 1 printed as 1.00 is its own exponential, exactly)."""
    if (x.decimals or 0) < 2:
        return None              # 0.2 is the rounding of too many numbers (e^{-1.5} among them) to say which
    return next((v for v in exps if x.contains(v)), None)


def exact_sum_of_rounded_exps(left, n: Num, printed: list[float]) -> bool:
    """Is `left` a sum of ≥ 2 printed numbers, each the rounding of an exponential e^s (s a simple half or whole
    number, or one of `printed`), whose unrounded sum is what n prints?"""
    if not isinstance(left, nb.Op) or left.op != "+":
        return False
    terms = [nb.plain_number(t) for t in nb.terms_of(left)]
    if len(terms) < 2 or any(t is None for t in terms):
        return False
    candidates = [math.exp(s) for s in list(_SIMPLE) + [s for s in printed if s not in _SIMPLE] if abs(s) <= 30]
    exps = [_exp_behind(t, candidates) for t in terms]
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


def exps_over_row(chains: list[Chain], more_rows: list[list[float]] = ()) -> list[float]:
    """"第一行 [1.41, 1.41]：e^1.41 ≈ 4.10, 总和=8.20": one exponential printed for a score the row holds twice
    counts for each; [the printed exponential of each entry] when every entry of the row printed on the line has
    one, else []."""
    exps: dict[float, float] = {}
    rows = [list(r) for r in more_rows]     # rows written in math on the line, outside its chains
    for x in chains:
        for k, p in enumerate(x.parts):
            if isinstance(p, ArrayPart) and p.array.is_vector:
                rows.append([n.value for n in p.array.numbers])
            if isinstance(p, ExprPart) and isinstance(p.expr, nb.Op) and p.expr.op == "exp" and k + 1 < len(x.parts):
                arg, got = nb.plain_number(p.expr.args[0]), x.parts[k + 1]
                value = nb.plain_number(got.expr) if isinstance(got, ExprPart) else None
                if arg is not None and value is not None:
                    exps[arg.value] = value.value
    for row in rows:
        live = [v for v in row if v != float("-inf")]          # a masked entry's exponential is 0
        if len(live) >= 2 and all(v in exps for v in live):
            return [exps[v] for v in live]
    return []


def exp_of_neither(left, n: Num, trace: list[float]) -> bool:
    """`e^{8.49} ≈ 4875.1` beside a score of 8.4853: the printed value is neither the exponential of the argument
    as printed (4865.9) nor of any exact value of the example that the argument is a rounding of (4843.0).  The
    argument's rounding spans both and more, so an interval lets the number pass; the two readings a person
    computes do not, by more than a unit of its last digit.  Only for a lone exponential of a plain number printed
    to two decimals or more, a result of four significant digits or more, and an argument that rounds some value of
    the example."""
    if not isinstance(left, nb.Op) or left.op != "exp" or len(left.args) != 1:
        return False
    arg = nb.plain_number(left.args[0])
    if arg is None or (arg.decimals or 0) < 2 or nb.significant_digits(n) < 4 or abs(arg.value) > 30:
        return False
    behind = [x for x in trace if arg.contains(x) and abs(x - arg.value) > 1e-12]
    if not behind:
        return False
    readings = [math.exp(arg.value)] + [math.exp(x) for x in behind[:50]]
    # more than a unit of the last digit from each (16.911 for 16.9116 is cut, not a slip of this kind)
    return not any(n.contains(x, slack=n.half) for x in readings)
