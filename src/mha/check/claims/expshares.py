"""A softmax worked the short way on one line or two: a row of exponentials, their sum said in words after it, and
the weights that are their shares ("Exponentials $2.72, 2.72, 7.39$, sum 12.83. Weights $0.21, 0.21, 0.58$"; the
exponentials may be written one equation each, `e^{0.71}, e^{0} = 2.03, 1, summing to 3.03`).  The
line carries its own identity, whatever the configuration (the page may hold several small exercises):

* the sum is the number that the words "sum", "summing to", "total", "合计", "总和" put right after the exponentials,
  on their line; it is judged against their printed values added up, each one's rounding allowed;
* the weights are the next row named as weights or probabilities, with as many entries, on the same line or the
  next two; an entry is judged only when at least two of the others, and two thirds of them, are their
  exponentials' shares (within the rounding of every printed number), so the row is known to be those shares.

Only documents read as text lines are scanned (a notebook's printouts come from code, which adds up by itself)."""

from __future__ import annotations

import math
import re

from .. import labels as lb
from .. import numbers as nb
from ..numbers import Num, half_unit
from ..objects import ExprPart, LabelPart
from ..report import Finding

_CJK_SUMS = r"合计|總和|总和|之和|和为|合計"     # the words for a sum in Chinese, written before its value
_SUM = re.compile(r"^[\s$]*[,;，、；]?\s*(?:(?:and\s+)?(?:their\s+|the\s+)?(?:sum(?:ming)?|total(?:ling)?|adding\s+up)"
                  r"(?:\s+(?:to|is|of|=))?|" + _CJK_SUMS + r"|和(?=\s*\$?\s*[=＝]))\s*[:=：为是]?\s*\$?\s*(?:=\s*)?"
                  r"([-+]?\d+(?:\.\d+)?)(?![\d.]\d)", re.I)       # (`，總和 $= 10.107$`: the sign inside the math)
_SUM_WORD = re.compile(r"(?i)\bsum(?:ming)?\b|\btotal(?:ling)?\b|" + _CJK_SUMS)
REACH = 3          # lines from the exponentials to their weights (a line for their sum and a blank one between)


def _nodes(label: str) -> tuple:
    # (`A_1[0,:]`, `A[0]`: one row of the weights, indexed as code indexes it; the row is the one printed)
    r = lb.parse_label(re.sub(r"\[\s*\d+\s*(?:,\s*:\s*)?\]\s*$", "", (label or "").strip()))
    return tuple(r.nodes) if r is not None else ()


def _row(a) -> list[Num] | None:
    if len(a.rows) != 1 or a.rows[0] is None or any(c is None for c in a.rows[0]) or a.place.cell is not None:
        return None
    return list(a.rows[0])


def _after(line: str, row: list[Num]) -> str | None:
    """The text of the line after the row's last entry (each entry found after the one before it)."""
    at = 0
    for n in row:
        k = line.find(n.text, at)
        if k < 0:
            return None
        at = k + len(n.text)
    return line[at:]


def _exp_lines(doc) -> list[tuple[int, list[Num]]]:
    """Exponentials written one equation each on a line (`e^{0.71} = 2.03; e^{0} = 1`, a paired list as
    workedlists.py spells it): the row of their values, with the line, two or more in a row."""
    by_line: dict[int, list[Num]] = {}
    for c in doc.chains:
        if c.place.cell is not None or len(c.parts) != 2 or not all(isinstance(p, ExprPart) for p in c.parts):
            continue
        left, right = c.parts
        if isinstance(left.expr, nb.Op) and left.expr.op == "exp" and isinstance(right.expr, nb.Lit) and \
                not _masked(left.expr):
            by_line.setdefault(c.place.line, []).append(right.expr.num)
    return [(line, row) for line, row in by_line.items() if len(row) >= 2]


def exp_shares(doc, findings: list[Finding], text: str) -> list[Finding]:
    """Error findings for a worded sum of exponentials, and for a weight that is not its exponential's share."""
    lines = text.splitlines()
    found = {f.line for f in findings if f.severity == "error" and f.cell is None}
    arrays = [a for a in doc.arrays if _row(a) is not None]
    rows = sorted([(a.line, _row(a), k) for k, a in enumerate(arrays) if _nodes(a.label) == ("E",)] +
                  [(line, row, None) for line, row in _exp_lines(doc)], key=lambda x: x[0])
    out: list[Finding] = []
    for line, e, k in rows:
        if len(e) < 2 or any(n.value <= 0 for n in e) or not 0 < line <= len(lines):
            continue
        if k is None and not re.search(r"\s*,\s*".join(re.escape(n.text) for n in e), lines[line - 1]) and \
                not _each_once(lines[line - 1], e):
            continue            # exponentials worked one by one ("e^{0.58} ≈ 1.78 (twice) and e^0 = 1"): no row
        if k is None and len(_SUM_WORD.findall(lines[line - 1])) > 1:
            continue            # "Row 1: e^a = .., e^b = .., sum = ... Row 2: ...": two rows on one line, no one row
        rest = _after(lines[line - 1], e)
        m = _SUM.match(rest) if rest is not None else None
        if m and line not in found:
            s = Num.parse(m.group(1), line)
            total = sum(n.value for n in e)
            slack = s.half * (1 + 1e-9) + sum(n.half for n in e) + 1e-12
            if abs(s.value - total) > slack and not _an_entry_again(s, e, total, slack):
                terms = " + ".join(n.text for n in e)
                out.append(Finding(line, None, "the sum of the exponentials before it", s.text, total,
                                   s.rounded(total), "softmax", f"arithmetic slip: {terms} = {s.rounded(total)}",
                                   "arithmetic"))
                found.add(line)
        later = arrays[k + 1:] if k is not None else [b for b in arrays if b.line >= line]
        odd = _odd_exponential(e, arrays, line, found) if line not in found else None
        if odd is not None:           # one exponential is not e to its score: that one is the slip, not its weight
            out.append(odd)
            found.add(line)
            continue
        w_arr = next((b for b in later if 0 <= b.line - line <= REACH and _nodes(b.label) == ("A",)
                      and len(_row(b)) == len(e)), None)
        if w_arr is None or any(_nodes(b.label) == ("E",) for b in later[:later.index(w_arr)]):
            continue
        f = _one_share(e, _row(w_arr), w_arr.line, found)
        if f is not None:
            out.append(f)
            found.add(f.line)
    return out


def _an_entry_again(s: Num, e: list[Num], total: float, slack: float) -> bool:
    """`e^{3.54} ≈ 34.31，e^{0.71} ≈ 2.03，和为 38.37`: the sum of a wider row whose equal entries were written once
    (34.31 + 2.03 + 2.03): the printed exponentials plus one or two more copies of one of them."""
    return any(abs(s.value - total - j * n.value) <= slack + j * n.half for n in e for j in (1, 2))


# `e^{-\infty} = 0`: why a masked weight is 0, said beside the row, no entry of it
_MASKED = re.compile(r"e\s*\^\s*\{?\s*[-−]\s*(?:\\infty|∞|inf\b)")


def _masked(e) -> bool:
    try:
        return math.isinf(nb.face(e.args[0]))
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False


def _each_once(line: str, e: list[Num]) -> bool:
    """`e^{2.56} = 12.94, \\quad e^{1.90} = 6.69, ...`: one equation per exponential, as many as the line has, none
    said to stand for several ("(twice)", "× 2"): the row of exponentials, written out."""
    return len(re.findall(r"e\s*\^", line)) - len(_MASKED.findall(line)) == len(e) and \
        not re.search(r"(?i)twice|thrice|\btimes\b|[(（]\s*[×x]\s*\d|两次|三次", line)


def _odd_exponential(e: list[Num], arrays: list, line: int, found: set[int]) -> Finding | None:
    """"Scores: [0.3, 0.8, 1.2, 0.5]" a line or two above "exp(): [1.35, 2.23, 3.23, 1.65]": every exponential but
    one is e to its score at its own printed precision (or all, with the row's largest score taken off first), so
    the row is known to be those exponentials, and the one that is not is a slip of its own (its weight, worked
    from it, is not to blame).  Not where the scores' line carries a finding: the slip is in the score then."""
    s_arr = next((a for a in reversed(arrays) if 0 < line - a.line <= REACH + 1 and _row(a) is not None and
                  len(_row(a)) == len(e) and set(_nodes(a.label)) & {"QKt", "S"}), None)
    if s_arr is None or s_arr.line in found:
        return None               # a slip in the scores themselves: the exponentials after it are right
    row = _row(s_arr)
    scores = [n.value for n in row]
    if max(abs(x) for x in scores) > 50:
        return None
    for shift in (0.0, max(scores)):
        exact = [math.exp(x - shift) for x in scores]
        # (a score printed to three decimals or more is a rounded one, its rounding allowed: e^{1.414} printed
        # 4.113 from √2, whose e^ is 4.1133; 0.5 or 1.2 are given as they are)
        lo = [x.lo if (x.decimals or 0) >= 3 else x.value for x in row]
        hi = [x.hi if (x.decimals or 0) >= 3 else x.value for x in row]
        bad = [i for i, n in enumerate(e) if n.hi < math.exp(lo[i] - shift) - 1e-12 or
               n.lo > math.exp(hi[i] - shift) + 1e-12]
        ok = len(e) - len(bad)
        if len(bad) == 1 and ok >= 2 and 3 * ok >= 2 * (len(e) - 1):
            i = bad[0]
            n = e[i]
            top = next(x.text for x in _row(s_arr) if x.value == shift) if shift else ""
            what = f"exp({_row(s_arr)[i].text}{f' - {top}' if shift else ''})"
            return Finding(n.line or line, None, f"exponential {i + 1} of the scores at line {s_arr.line}", n.text,
                           exact[i], n.rounded(exact[i]), "softmax", f"arithmetic slip: {what} is "
                           f"{n.rounded(exact[i])}", "arithmetic")
    return None


def _one_share(e: list[Num], w: list[Num], line: int, found: set[int]) -> Finding | None:
    """The finding for the one weight (of a row that is otherwise its exponentials' shares) that is not its share."""
    ok, bad = [], []
    for i, (x, n) in enumerate(zip(e, w)):
        others_lo = sum(y.lo for j, y in enumerate(e) if j != i)
        others_hi = sum(y.hi for j, y in enumerate(e) if j != i)
        lo, hi = x.lo / (x.lo + others_hi), x.hi / (x.hi + others_lo)
        half = n.half if n.decimals is not None else half_unit(0)
        (ok if lo - half - 1e-12 <= n.value <= hi + half + 1e-12 else bad).append(i)
    if len(bad) != 1 or len(ok) < 2 or 3 * len(ok) < 2 * (len(w) - 1):
        return None
    i = bad[0]
    n = w[i]
    if (n.line or line) in found:
        return None
    share = e[i].value / sum(x.value for x in e)
    return Finding(n.line or line, None, f"weight {i + 1} (its exponential's share)", n.text, share, n.rounded(share),
                   "softmax", f"arithmetic slip: {e[i].text} / ({' + '.join(x.text for x in e)}) gives "
                   f"{n.rounded(share)}", "arithmetic")


def rounded_shares(doc, findings: list[Finding]) -> None:
    """Error findings on weights that are, at their printed precision, their exponentials' shares as the page
    prints those exponentials (rounded) a line or three above, or shares of the sum it prints between
    (`exp(1.46) = 4.31`, `sum = 10.37`, then `α₃ = [.., 0.416]` for 4.31/10.37): they follow from the rounded
    values printed before them, so they become notes, as any value that follows from rounded values does."""
    rows: dict[int, list[Num]] = dict(_exp_lines(doc))
    rows.update({a.line: _row(a) for a in doc.arrays if _row(a) is not None and _nodes(a.label) == ("E",)})
    if not rows:
        return
    sums = {c.place.line: c.parts[-1].expr.num for c in doc.chains if c.place.cell is None and len(c.parts) == 2 and
            isinstance(c.parts[0], LabelPart) and _nodes(c.parts[0].text) == ("row_sum",) and
            isinstance(c.parts[-1], ExprPart) and isinstance(c.parts[-1].expr, nb.Lit)}
    for k, f in enumerate(findings):
        if f.severity != "error" or f.cell is not None or f.step != "softmax":
            continue
        weights = next((_row(a) for a in doc.arrays if a.line == f.line and _row(a) is not None and
                        any(n.text == f.printed for n in _row(a))), None)
        e_line = max((ln for ln in rows if 0 < f.line - ln <= 3 and len(rows[ln]) == len(weights or [])), default=None)
        if weights is None or e_line is None:
            continue
        e = rows[e_line]
        totals = [sum(x.value for x in e)] + [s.value for ln, s in sums.items() if e_line <= ln < f.line]
        j = next(i for i, n in enumerate(weights) if n.text == f.printed)
        n = weights[j]
        got = next((e[j].value / t for t in totals if t > 0 and n.contains(e[j].value / t)), None)
        if got is not None:
            findings[k] = Finding(f.line, f.cell, f.claim, f.printed, f.exact, f.rounded, f.step,
                                  f"follows from the rounded exponentials printed before it ({e[j].text} / "
                                  f"{_fmt(e[j].value / got)} gives {n.rounded(got)})", "rounded_sum", "note")


def _fmt(x: float) -> str:
    return f"{x:.6g}"
