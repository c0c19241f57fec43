"""Readings a careful reader allows before calling a written line wrong: the usual conventions that make a printed
result right although the line, read to the letter, gives another value.

- A spread of n values (Σ (x_i - m)² over n squared deviations) is a population or a sample one: divided by n or by
  n - 1 (what torch.std and pandas give by default), and a plain-text root `√(…)/n` may cover the division.
- Bracketed whole numbers joined by + that keep every size but one and add that one are tensor shapes put side by
  side (`[5, 8] + [5, 8] → [5, 16]`: a concatenation), not a sum of vectors.
"""

from __future__ import annotations

import math
import re

from .. import numbers as nb
from ..numbers import Num


def _squared_deviations(e) -> int:
    """How many squared terms Σ (a - b)² adds, or 0 when `e` is not such a sum (at least two terms)."""
    terms = nb.terms_of(e)
    if len(terms) < 2:
        return 0
    for t in terms:
        if not (isinstance(t, nb.Op) and t.op == "pow" and len(t.args) == 2):
            return 0
        power = nb.plain_number(t.args[1])
        if power is None or power.value != 2 or nb.has_symbols(t.args[0]):
            return 0
    return len(terms)


def _spread_parts(e) -> tuple[object, int] | None:
    """(Σ of squared deviations, n) when `e` divides such a sum by the count of its terms, with or without a root
    over it or under it: Σ/n, √(Σ/n), √(Σ)/n.  None for anything else."""
    root = isinstance(e, nb.Op) and e.op == "sqrt"
    inner = e.args[0] if root else e
    if not (isinstance(inner, nb.Op) and inner.op == "/" and len(inner.args) == 2):
        return None
    top, below = inner.args
    n = nb.plain_number(below)
    if n is None or not n.exact or not 2 <= n.value <= 10_000:      # a count of terms, never 1e400 (inf)
        return None
    if not root and isinstance(top, nb.Op) and top.op == "sqrt":
        top = top.args[0]                             # √(Σ)/n as printed in plain text: the root may cover the /n
    if _squared_deviations(top) != int(n.value):
        return None
    return top, int(n.value)


def spread_reading(e, printed: Num) -> tuple[str, float] | None:
    """The usual reading of a spread that gives the printed value, and its value (None: none does, or `e` is no
    spread).  A printed value one of them gives is right: the line is held, with no finding."""
    parts = _spread_parts(e)
    if parts is None:
        return None
    top, n = parts
    try:
        total = nb.face(top)
    except (ArithmeticError, OverflowError, ValueError):
        return None
    readings = {f"the population variance (÷{n})": total / n,
                f"the sample variance (÷{n - 1})": total / (n - 1),
                f"the population standard deviation √(Σ/{n})": math.sqrt(total / n),
                f"the sample standard deviation √(Σ/{n - 1})": math.sqrt(total / (n - 1))}
    return next(((name, x) for name, x in readings.items() if printed.contains(x)), None)


def concatenated_shapes(e, cells: list[Num]) -> bool:
    """[5, 8] + [5, 8] = [5, 16]: whole-number vectors that agree in every place but one, where the result adds
    them, are shapes put side by side."""
    terms = nb.terms_of(e)
    if len(terms) < 2 or not all(isinstance(t, nb.Vec) and len(t.cells) == len(cells) for t in terms):
        return False
    rows = [list(t.cells) for t in terms] + [cells]
    if not all(x is not None and x.exact and x.value >= 1 and float(x.value).is_integer() for r in rows for x in r):
        return False
    joined = [a for a in range(len(cells))
              if sum(t.cells[a].value for t in terms) == cells[a].value]
    kept = [a for a in range(len(cells)) if all(t.cells[a].value == cells[a].value for t in terms)]
    return any(all(b in kept for b in range(len(cells)) if b != a) for a in joined)


# a remark after a result that says it is scaled already: "= 2505.5 (after /√d_k)", "= 3.54 (scaled)"
_SCALED_AFTER = re.compile(r"(?i)^\W{0,3}(?:after|then|once)?\s*(?:[/÷]|divided\s+by)\s*(?:√|sqrt|\\sqrt)|"
                           r"^\W{0,3}(?:after\s+)?scal(?:ed|ing)\b|^\W{0,3}缩放后")


def scaled_after(text: str, printed: Num, got: float) -> bool:
    """A written sum whose result the line's own remark says is divided by a root (`23*40 + ... = 2505.5 (after
    /√d_k)`): the printed value is the sum over √k for a whole k, so the line holds as the remark reads it."""
    at = text.rfind(printed.text)
    if at < 0 or not _SCALED_AFTER.search(text[at + len(printed.text):]) or printed.value == 0 or got == 0:
        return False
    k = round((got / printed.value) ** 2)
    return 1 < k <= 65536 and printed.contains(got / math.sqrt(k))


_LISTED = re.compile(r"((?:[-−]?\d+(?:\.\d+)?`?\s*[,+]\s*`?){1,15}[-−]?\d+(?:\.\d+)?)[`$)\]]*\s*[,;]?\s*(?:and\s+)?"
                     r"(?:a\s+|the\s+|their\s+)?(?:total|sum|合计|总和|和为)\s*(?:is|of|=|:|为|是)?\s*`?\s*$", re.I)


def total_of_listed(line: str, printed: Num) -> tuple[float, float] | None:
    """"exponentials `1, 2.028, 2.028`, total `5.056`": a total printed right after the numbers it adds is their
    sum, whatever example they are of.  (their sum, the slack their rounding and the total's allow), or None when
    no such list stands right before it."""
    at = line.find(printed.text)
    while at >= 0:
        end = at + len(printed.text)
        if (at and (line[at - 1].isdigit() or line[at - 1] == ".")) or \
                (end < len(line) and (line[end].isdigit() or line[end] == "." and line[end + 1:end + 2].isdigit())):
            at = line.find(printed.text, at + 1)
            continue            # the "1" of 17.496: a part of another number, not this one
        m = _LISTED.search(line[max(0, at - 160):at])
        if m:
            terms = [Num.parse(t.replace("−", "-")) for t in re.findall(r"[-−]?\d+(?:\.\d+)?", m.group(1))]
            if len(terms) >= 2:
                return sum(t.value for t in terms), sum(t.half for t in terms) + printed.half
        at = line.find(printed.text, at + 1)
    return None
