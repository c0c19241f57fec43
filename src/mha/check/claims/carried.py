"""A wrong value carried into new arithmetic: "similarity = 0.3·0.7 + ... = 0.79" is found wrong (exact 0.77),
and two lines on the author goes on from it, "scaled = 0.79 / 2 = 0.395", then "exp(0.395) / (...) = 0.61".  Each
later line does its own arithmetic right, so nothing on it is a slip of its own, yet the number it prints is wrong
too: it starts from the wrong one.  One slip, one finding: such a line gets a note that points to the line found
wrong ("follows from line N"), with the value it would print had it started from the right one; its own result is
then followed on in the same way, so a chain of steps carries the note to its end.  A weighted sum of value
vectors (`0.61·[1, 0] + 0.39·[0, 2] = [0.61, 0.78]`, its terms worked out on the lines between) is followed the
same way, each line noted at its first number that the right weights change.

Identity before verdict: a term of the arithmetic is printed digit for digit as the wrong number of an error
finding (or of a carried result) a few lines before it, with at least two decimals; the chain's printed result
agrees with its own printed terms (the author's arithmetic holds there); and putting the exact value in place of
the carried one changes the result at its own precision.  Lines that already carry a finding are left as they are.
Only documents read as text lines are followed (a notebook's lines are counted per cell)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import numbers as nb
from ..objects import ArrayPart, Chain, ExprPart
from ..report import Finding

SPAN = 40            # lines between a wrong number and the arithmetic that carries it


@dataclass(frozen=True)
class _Wrong:
    line: int          # where this printed number stands
    exact: float       # what it should be
    origin: int        # the line found wrong at the start of the chain of steps
    step: str


def carried_notes(doc, findings: list[Finding]) -> list[Finding]:
    """Notes for the arithmetic lines that carry a number found wrong on an earlier line (see the module)."""
    if doc.format == "ipynb":
        return []
    wrong: dict[str, _Wrong] = {}
    found: dict[str, int] = {}
    for f in findings:
        if f.severity == "error" and f.cell is None and isinstance(f.exact, float) and _decimals(f.printed) >= 2:
            wrong.setdefault(f.printed, _Wrong(f.line, f.exact, f.line, f.step))
            found[f.printed] = found.get(f.printed, 0) + 1
    # a number printed more often in the document's arrays than it was found wrong stands for a right value too
    # (row 1's wrong 0.21 beside row 2's right 0.21): the arithmetic that uses it may be using the right one
    printed: dict[str, int] = {}
    for a in doc.arrays:
        for n in a.numbers:
            if n is not None and n.text in wrong:
                printed[n.text] = printed.get(n.text, 0) + 1
    wrong = {t: w for t, w in wrong.items() if printed.get(t, 0) <= found[t]}
    busy = {f.line for f in findings if f.cell is None}
    out: list[Finding] = []
    for c in sorted((c for c in doc.chains if c.place.cell is None), key=lambda c: c.place.line):
        got = _carried(c, wrong)
        if got is None:
            continue
        places, w, result = got
        for line, printed, exact in places:
            if line in busy:
                continue
            busy.add(line)
            out.append(Finding(line, None, c.text.strip()[:80], printed.text, exact, printed.rounded(exact), w.step,
                               f"follows from line {w.origin}: the value found wrong there, carried into this "
                               f"arithmetic (it gives {printed.rounded(exact)} from the right value)", "wrong_value",
                               "note"))
        if result is not None and _decimals(result[0].text) >= 2:
            wrong.setdefault(result[0].text, _Wrong(result[0].line or c.place.line, result[1], w.origin, w.step))
    return out


def _carried(c: Chain, wrong: dict[str, _Wrong]):
    """([(line, printed number, its value from the right terms)], the wrong number carried, (result, its value) to
    follow on or None) for a chain that carries a wrong number; None for any other chain."""
    exprs = [p for p in c.parts if isinstance(p, ExprPart)]
    k = next((i for i, p in enumerate(exprs) if nb.plain_number(p.expr) is None and not _symbolic(p.expr)), None)
    if k is None:
        return None
    e = exprs[k].expr
    hits = {id(n): wrong[n.text] for n in nb.leaves(e)
            if n.text in wrong and 0 < c.place.line - wrong[n.text].line <= SPAN}
    if not hits:
        return None
    fixed = nb.substitute(e, {i: w.exact for i, w in hits.items()})
    first = min(hits.values(), key=lambda w: w.line)
    res = nb.plain_number(exprs[-1].expr) if k + 1 < len(exprs) else None
    if res is not None:
        got = _scalar(e, fixed, res)
        return None if got is None else ([(res.line or c.place.line, res, got)], first, (res, got))
    arrays = [p.array for p in c.parts if isinstance(p, ArrayPart)]
    if arrays and c.parts[-1] is not None and isinstance(c.parts[-1], ArrayPart) and arrays[-1].is_vector:
        return _vector(e, fixed, exprs[k + 1:], arrays[-1], c.place.line, first)
    return None


def _scalar(e: nb.Expr, fixed: nb.Expr, res: nb.Num) -> float | None:
    """The result's value from the right terms, when its printed terms give it and the right ones do not."""
    try:
        printed, right = nb.evaluate(e), nb.evaluate(fixed)
    except (ArithmeticError, ValueError, OverflowError):
        return None
    if printed.lo > res.hi + 1e-9 or printed.hi < res.lo - 1e-9:
        return None                   # its own arithmetic does not hold: that is a slip, the arithmetic claim's
    if right.lo <= res.hi + 1e-9 and res.lo <= right.hi + 1e-9:
        return None                   # the right value with the other terms' own rounding gives it too
    return right.value


def _vector(e: nb.Expr, fixed: nb.Expr, between: list[ExprPart], result, line: int, w: _Wrong):
    """`0.6·[1, 2] + 0.4·[3, 0]` (carrying 0.6), then its terms worked out, then `= [1.8, 1.2]`: a note on each
    line whose printed numbers the right weights change, when the printed vector is what its printed terms give."""
    try:
        printed, right = nb.face_vector(e), nb.face_vector(fixed)
    except (ArithmeticError, ValueError, OverflowError):
        return None
    cells = result.numbers
    if printed is None or right is None or len(cells) != len(printed) or \
            any(abs(p - n.value) > n.half + 1e-9 for p, n in zip(printed, cells)):
        return None
    places = [(_line_of(e) or line, n, x) for n, x in _carried_leaves(e, fixed)]
    terms = nb.terms_of(fixed)
    for part in between:                                   # = [0.18, 0.36] + [1.2, 0] : the terms worked out
        shown = nb.terms_of(part.expr)
        if len(shown) == len(terms) and all(isinstance(t, nb.Vec) for t in shown):
            vals = [nb.face_vector(t) for t in terms]
            places += [(n.line or line, n, x) for t, v in zip(shown, vals) if v is not None
                       for n, x in zip(t.cells, v) if not n.contains(x)][:1]
    slack = _slack(fixed, len(right))
    places += [(n.line or line, n, x) for n, x, d in zip(cells, right, slack)
               if abs(n.value - x) > n.half + d + 1e-9][:1]
    return (places, w, None) if places else None


def _slack(fixed: nb.Expr, n: int) -> list[float]:
    """How far the other printed terms' own rounding can move each cell of a weighted sum (0.422 stands for
    anything in [0.4215, 0.4225]): their first-order effect, the sum being linear in each weight."""
    out = [0.0] * n
    base = nb.face_vector(fixed)
    if base is None:
        return out
    for leaf in nb.leaves(fixed):
        if leaf.half <= 0 or not leaf.decimals:
            continue
        moved = nb.face_vector(nb.substitute(fixed, {id(leaf): leaf.value + leaf.half}))
        if moved is not None and len(moved) == n:
            out = [d + abs(m - b) for d, m, b in zip(out, moved, base)]
    return out


def _carried_leaves(e: nb.Expr, fixed: nb.Expr) -> list[tuple[nb.Num, float]]:
    """The first carried number of the expression, with its right value (the line that quotes it again)."""
    for a, b in zip(nb.leaves(e), nb.leaves(fixed)):
        if a is not b and not a.contains(b.value):
            return [(a, b.value)]
    return []


def _symbolic(e: nb.Expr) -> bool:
    """A symbol in it (v_1, q): nothing here evaluates it (a bracketed vector is a number)."""
    match e:
        case nb.Sym():
            return True
        case nb.Op(_, args):
            return any(_symbolic(a) for a in args)
    return False


def _line_of(e: nb.Expr) -> int:
    return next((n.line for n in nb.leaves(e) if n.line), 0)


def _decimals(text: str) -> int:
    t = text.strip().lstrip("-−")
    return len(t.split(".", 1)[1]) if "." in t and t.replace(".", "", 1).isdigit() else 0


_LISTED = re.compile(r"^\s*(?:[-*]\s*)?(?:exp|e\^)\S*.*?=\s*([-−]?\d+(?:\.\d+)?)\s*\$?\s*$", re.I)
_SUM_LINE = re.compile(r"(?i)^\s*(?:[-*]\s*)?(?:sum|suma|somme|summe|soma|total|和|合计|求和)\b")


def carried_sums(doc, findings: list[Finding]) -> None:
    """`Suma = 4.4524` under `exp(...) = 2.0281`, `= 1.0000`, `= 1.4243` listed one a line, one of them found wrong:
    the sum adds the printed terms right, and is off only by the wrong one.  One slip, one finding: the sum's error
    becomes a note on the line the term was found wrong."""
    if doc.format == "ipynb" or not getattr(doc, "lines", None):
        return
    wrong = {f.line: f for f in findings if f.severity == "error" and f.cell is None}
    for f in findings:
        if f.severity != "error" or f.cell is not None or not 0 < f.line <= len(doc.lines) or \
                not _SUM_LINE.match(doc.lines[f.line - 1]):
            continue
        terms, k = [], f.line - 1
        while k >= 1 and len(terms) < 64:
            m = _LISTED.match(doc.lines[k - 1])
            if m is None:
                break
            terms.append((k, m.group(1).replace("−", "-")))
            k -= 1
        hit = next((wrong[ln] for ln, _ in terms if ln in wrong), None)
        if len(terms) < 2 or hit is None:
            continue
        try:
            total, printed = sum(float(t) for _, t in terms), nb.Num.parse(f.printed)
        except ValueError:
            continue
        if abs(total - printed.value) <= printed.half * (1 + 1e-9) + 1e-12:
            f.severity, f.kind = "note", "carried"
            f.cause = (f"follows from line {hit.line}: the value found wrong there, added into this sum (the printed "
                       f"terms give {f.printed})")
