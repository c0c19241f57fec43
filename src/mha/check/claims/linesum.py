"""A sum named in words after the values it adds, on one line: `e^{1.5} = 4.48, e^{0} = 1, e^{1.0} = 2.72, the
three add up to 8.20` (三者之和 8.20).  The words say what the number is (the sum of the other results on its
line), so it is judged against those printed results, with interval arithmetic as an arithmetic line is,
whatever the configuration."""

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
