"""A sum named in words after the values it adds, on one line: `e^{1.5} = 4.48, e^{0} = 1, e^{1.0} = 2.72, the
three add up to 8.20` (三者之和 8.20).  The words say what the number is (the sum of the other results on its
line), so it is judged against those printed results, with interval arithmetic as an arithmetic line is,
whatever the configuration.

Or down the column above it: a total named "sum" (or "total") on the line just after a run of `expression =
number` lines, one a line, is the sum of their results when they add up to it, whatever a bare "sum" would
otherwise name (a softmax row sum: a weighted sum of values `0.25 * 1.93 = 0.48`, `+ 0.75 * 0.90 = 0.68`,
`sum = 1.16` is not one).  The column is its identity, so it is judged against the column, not the trace.  A
column that does not add up to it identifies it only when written as a running addition (each line after the
first starts with "+"); then it is a slip of the total.  A term whose own line is a slip counts at the value its
expression gives (the slip is found on its own line: one slip, one finding)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import numbers as nb
from ..numbers import Num
from ..objects import Chain, ExprPart, LabelPart
from ..report import Finding
from .common import _simple_kind

# the words must say how many values are added (三者之和, "the sum of the three"): a bare "sum" may count a term
# twice ("e^0.71 ≈ 2.028 (twice), e^0 = 1, sum ≈ 5.056")
_SUM_WORD = re.compile(r"(?:之和|的和|总和|\bsum|\btotal)\s*(?:为|是|\bis)?$", re.I)
_COUNTED = (r"(?:(三|两|四)者(?:之和|的和|总和)"
            r"|\b(?:sum|total)\s+of\s+(?:the|all|these|those)\s+(three|two|four))"
            r"\s*(?:is|为|是|=|≈|:|：)?\s*\$?\s*")
_COUNT = {"两": 2, "三": 3, "四": 4, "two": 2, "three": 3, "four": 4}


@dataclass
class LineSumClaim:
    terms: list[Num]        # the printed results of the other equalities on its line
    total: Num
    chain: Chain


def line_sums(chains: list[Chain]) -> list[LineSumClaim]:
    out = []
    by_line: dict[tuple, list[Chain]] = {}
    for c in chains:
        by_line.setdefault((c.place.cell, c.place.line), []).append(c)
    for group in by_line.values():
        for k, c in enumerate(group):
            total = _named_sum(c)
            if total is None:
                continue
            # a result computed from the sum (1.4241 / 3.4522 ≈ 0.4125, later on the line) is not one of its terms
            terms = [t for g in group[:k] + group[k + 1:] if (t := _result(g)) is not None and not _uses(g, total)]
            if len(terms) == _count(c, total) >= 2:
                out.append(LineSumClaim(terms, total, c))
    return out


def _named_sum(c: Chain) -> Num | None:
    if len(c.parts) != 2 or not isinstance(c.parts[0], LabelPart) or not isinstance(c.parts[1], ExprPart):
        return None
    if not _SUM_WORD.search(c.parts[0].text.strip()):
        return None
    return nb.plain_number(c.parts[1].expr)


def _count(c: Chain, total: Num) -> int:
    """How many values the words say the sum adds, read on the line just before the number; 0 when unsaid."""
    m = re.search(_COUNTED + re.escape(total.text) + r"(?![\d.])", c.text, re.I)
    return _COUNT[(m.group(1) or m.group(2)).lower()] if m else 0


def _uses(c: Chain, total: Num) -> bool:
    return any(n.text == total.text or abs(n.value - total.value) <= total.half
               for p in c.parts if isinstance(p, ExprPart) for n in nb.leaves(p.expr))


def _result(c: Chain) -> Num | None:
    """The printed result of `expression = number` (an expression that is more than a number)."""
    parts = c.parts[1:] if c.parts and isinstance(c.parts[0], LabelPart) else c.parts   # "取指数：e^0.5 = 1.65"
    if len(parts) < 2 or not all(isinstance(p, ExprPart) for p in parts[-2:]):
        return None
    if nb.plain_number(parts[0].expr) is not None if isinstance(parts[0], ExprPart) else True:
        return None
    return nb.plain_number(parts[-1].expr)


@dataclass
class ColumnSumClaim:
    terms: list[Num]        # the results of the lines above, as their own arithmetic gives them
    total: Num
    chain: Chain
    step: str | None = None     # "softmax" for the shares of one row listed one per line


def column_sums(chains: list[Chain], arrays: list = ()) -> list[ColumnSumClaim]:
    """A named total under a column of `expression = number` lines that adds up to it, or that is written as a
    running addition (the lines after the first start with "+")."""
    by_line: dict[tuple, list[Chain]] = {}
    for c in chains:
        same = by_line.setdefault((c.place.cell, c.place.line), [])
        if not any(x.text.replace(" ", "") == c.text.replace(" ", "") for x in same):   # (a line read twice: once)
            same.append(c)
    out = []
    for c in chains:
        total = _named_sum(c)
        if total is None or len(by_line[(c.place.cell, c.place.line)]) != 1:
            continue
        column: list[Chain] = []
        line = c.place.line - 1
        while len(column) < 64 and len(g := by_line.get((c.place.cell, line), [])) == 1 and \
                _result(g[0]) is not None and _named_sum(g[0]) is None:
            column.insert(0, g[0])
            line -= 1
        if len(column) < 2:
            listed = _listed_above(by_line, c) or _row_listed_above(arrays, c)   # "cat: 0.35", ... "Total: 1.10"
            if listed is not None:
                out.append(ColumnSumClaim(listed, total, c, "softmax"))
            continue
        terms = [_own_result(g) for g in column]
        running = all(g.parts[0].text.lstrip().startswith("+") for g in column[1:])
        if running or _adds_up(terms, total) or _shares(terms):
            out.append(ColumnSumClaim(terms, total, c))
    return out


def _own_result(c: Chain) -> Num:
    """The printed result of a column line, or what its expression gives when the two disagree (a slip there)."""
    n = _result(c)
    try:
        iv = nb.evaluate(nb.exact_below(c.parts[-2].expr, n.decimals if n.decimals is not None else 0))
    except (ArithmeticError, OverflowError, ValueError):
        return n
    return n if iv.lo - 1e-12 <= n.hi and n.lo <= iv.hi + 1e-12 else iv


def _listed_above(by_line: dict, c: Chain) -> list[Num] | None:
    """The values of the `name: value` lines just above a named total, when they are the shares of one row."""
    terms: list[Num] = []
    line = c.place.line - 1
    while len(terms) < 64 and len(g := by_line.get((c.place.cell, line), [])) == 1 and len(g[0].parts) == 2 and \
            isinstance(g[0].parts[0], LabelPart) and isinstance(g[0].parts[1], ExprPart) and \
            (n := nb.plain_number(g[0].parts[1].expr)) is not None and _named_sum(g[0]) is None:
        terms.insert(0, n)
        line -= 1
    return terms if _shares(terms) else None


def _row_listed_above(arrays: list, c: Chain) -> list[Num] | None:
    """The same, when the items were read as one row (readers/listed.py): each entry on its own line, the last one
    just above the total."""
    for a in arrays:
        if not a.is_vector or a.place.cell != c.place.cell or any(n is None for n in a.rows[0]):
            continue
        lines = [n.line for n in a.rows[0]]
        if lines and lines[-1] == c.place.line - 1 and lines == list(range(lines[0], lines[0] + len(lines))):
            return list(a.rows[0]) if _shares(list(a.rows[0])) else None
    return None


def _shares(terms: list[Num]) -> bool:
    """Three or more values in [0, 1] that add up to 1 within their rounding (the weights of one row, listed one per
    line): a total named under them is their sum, 1; one that says otherwise is a slip in it."""
    if len(terms) < 3 or any(not 0 <= t.value <= 1 or t.decimals is None for t in terms):
        return False
    return _adds_up(terms, Num(1.0, "1", 1.0, 1.0, 0, 0))


def _adds_up(terms: list[Num], total: Num) -> bool:
    s = terms[0]
    for t in terms[1:]:
        s = nb.add(s, t)
    return s.lo <= total.hi + 1e-9 and total.lo <= s.hi + 1e-9


class LineSumJudging:
    """Judge methods for LineSumClaim."""

    def judge_line_sum(self, c: LineSumClaim) -> None:
        self.n_claims += 1
        self.n_numbers += 1
        s = c.terms[0]
        for t in c.terms[1:]:
            s = nb.add(s, t)
        if s.lo <= c.total.hi + 1e-9 and c.total.lo <= s.hi + 1e-9:
            return
        exact = sum(t.value for t in c.terms)
        line = c.total.line or c.chain.place.line
        if any((g.line, g.cell, g.printed) == (line, c.chain.place.cell, c.total.text) for g in self.findings):
            return
        shown = " + ".join(t.text for t in c.terms)
        self.add(Finding(line, c.chain.place.cell, f"the sum named on the line ({shown})", c.total.text, exact,
                         c.total.rounded(exact), c.chain.context.step or "softmax",
                         f"arithmetic slip: {shown} gives {c.total.rounded(exact)}", _simple_kind(c.total, exact)))

    def judge_column_sum(self, c: ColumnSumClaim) -> None:
        """A total under the column it adds: against the column's results (interval arithmetic)."""
        self.n_claims += 1
        self.n_numbers += 1
        if _adds_up(c.terms, c.total):
            return
        exact = sum(t.value for t in c.terms)
        line = c.total.line or c.chain.place.line
        if any((g.line, g.cell, g.printed) == (line, c.chain.place.cell, c.total.text) for g in self.findings):
            return
        shown = f"the {len(c.terms)} lines above"
        self.add(Finding(line, c.chain.place.cell, f"the sum of the column above ({c.chain.text[:40]})",
                         c.total.text, exact, c.total.rounded(exact), c.step or c.chain.context.step or "scores",
                         f"arithmetic slip: {shown} add up to {c.total.rounded(exact)}", _simple_kind(c.total, exact)))
