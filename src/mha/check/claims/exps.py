"""The exponentials claim: a row of scores, and a little further on their exponentials listed in words, in the
same order ("scores [20, 5, -3, 8]; exp(20) ≈ 4.85×10^8, the others about 1.48×10^2, 4.98×10^-2, 2.98×10^3").
The list carries its own identity: it is the run of numbers in reading order (within a few lines of the scores)
that begins with the exponential of some score and goes on, number by number, through the scores after it, at
least three long.  A number of the run is judged only when at least two of the others, and two thirds of them,
are their scores' exponentials, so the order is known to be the scores'."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .. import numbers as nb
from ..model import half_units
from ..objects import Array, Document, ExprPart, LabelPart
from ..readers.shares import said_in_order
from ..report import Finding
from .common import _simple_kind

REACH = 3
_TOTAL = re.compile(r"(?i)\b(?:sum|total|suma|soma|somme|summe)\b|[Σ∑]|总和|合计|求和|和$|합계|합")
MOST = 16               # exponentials listed in words: a handful of scores, not a model's row


@dataclass
class ExpsClaim:
    x: Array                     # the scores, a row
    offset: int                  # the first listed number is exp(x[offset])
    listed: list[nb.Num]         # the run, one number per score from x[offset] on


def _sums(doc: Document) -> set[tuple[int, int, str]]:
    """(cell, line, text) of the results of sums written out (`1.6487×2 + 2.7183 = 6.0157`): the total of the
    exponentials listed before it, not one more exponential."""
    out = set()
    for c in doc.chains:
        # ... or named as the total: "Sum = 31.51" under the listed exponentials
        named = len(c.parts) == 2 and isinstance(c.parts[0], LabelPart) and isinstance(c.parts[1], ExprPart) and \
            _TOTAL.search(c.parts[0].text) is not None
        summed = len(c.parts) >= 2 and isinstance(c.parts[-1], ExprPart) and isinstance(c.parts[-2], ExprPart) and \
            "+" in getattr(c.parts[-2], "text", "")
        if named or summed:
            n = nb.plain_number(c.parts[-1].expr)
            if n is not None:
                out.add((c.place.cell or 0, c.place.line, n.text))
    return out


def exps_claims(doc: Document) -> list[ExpsClaim]:
    said = [(k, n) for k, n, pct in said_in_order(doc.hints) if not pct]
    sums = _sums(doc)
    out = []
    for x in doc.arrays:
        if not x.is_vector or x.elided or not 3 <= x.n_cols <= MOST or \
                not all(math.isfinite(n.value) for n in x.rows[0]) or _named_other(x):
            continue
        cell, line = x.place.cell or 0, x.line
        near = [n for k, n in said if k[0] == cell and line <= k[1] <= line + REACH]
        total = [(cell, n.line, n.text) in sums for n in near]       # a written-out sum ends a run
        best = None
        for i in range(len(near)):
            for o in range(x.n_cols - 2):
                run = near[i:i + x.n_cols - o]
                if len(run) < 3 or len(run) != x.n_cols - o or not _agrees(x, o, run[0]) or \
                        any(total[i:i + len(run)]):
                    continue
                ok = [_agrees(x, o + k, n) for k, n in enumerate(run)]
                if ok[0] and ok[1] and _informative(x, o, ok) >= 2 and (best is None or sum(ok) > best[0]):
                    best = (sum(ok), ExpsClaim(x, o, run))
        if best is not None:
            out.append(best[1])
    return out


def _informative(x: Array, offset: int, ok: list[bool]) -> int:
    """Agreeing exponentials that say something: exp(0) = 1 holds for any row with a zero in it (a row of weights
    [1, 0, 0, 0] then met "1/d_k" and a variance of 2.72 = e), and a score met before adds nothing new."""
    seen: set[float] = set()
    n = 0
    for k, good in enumerate(ok):
        v = x.rows[0][offset + k].value
        if good and v != 0 and v not in seen:
            n += 1
        seen.add(v)
    return n


def _exp_interval(x: Array, j: int) -> tuple[float, float, float]:
    band = half_units([x.rows[0]])
    h = 0.0 if band is None else float(band[0][j])
    v = x.rows[0][j].value
    try:
        return math.exp(v - h), math.exp(v + h), math.exp(v)
    except OverflowError:
        return math.inf, math.inf, math.inf


def _agrees(x: Array, j: int, n: nb.Num) -> bool:
    lo, hi, _ = _exp_interval(x, j)
    eps = 1e-9 * max(1.0, abs(n.value))
    return lo <= n.hi + eps and n.lo - eps <= hi


class ExpsJudging:
    """Judge methods for ExpsClaim."""

    def judge_exps(self, c: ExpsClaim) -> None:
        ok = [_agrees(c.x, c.offset + k, n) for k, n in enumerate(c.listed)]
        stated = _stated_arguments(self.doc)
        self.n_claims += 1
        for k, n in enumerate(c.listed):
            self.n_numbers += 1
            others = ok[:k] + ok[k + 1:]
            if ok[k] or sum(others) < 2 or 3 * sum(others) < 2 * len(others):
                continue
            score = c.x.rows[0][c.offset + k]
            exact = _exp_interval(c.x, c.offset + k)[2]
            if not np.isfinite(exact):
                continue
            args = stated.get(n.text, ())
            if args and all(abs(a - score.value) > 1e-9 for a in args):
                continue     # "exp(1.00) = 2.718": the text says whose exponential it is, another score's
            self.add(Finding(n.line or c.x.line, c.x.place.cell, f"exp of score {score.text} (line {c.x.line})",
                             n.text, exact, n.rounded(exact), "softmax",
                             f"exp({score.text}) is {n.rounded(exact)}", _simple_kind(n, exact)))


def _stated_arguments(doc: Document) -> dict[str, list[float]]:
    """{printed value: the arguments the text gives it}, from "exp(1.00) = 2.718" and "e^{0.5} = 1.649"."""
    out: dict[str, list[float]] = {}
    for c in doc.chains:
        for a, b in zip(c.parts, c.parts[1:]):
            e = getattr(a, "expr", None)
            if isinstance(e, nb.Op) and e.op == "exp" and e.args and hasattr(b, "expr"):
                arg, value = nb.plain_number(e.args[0]), nb.plain_number(b.expr)
                if arg is not None and value is not None:
                    out.setdefault(value.text, []).append(arg.value)
    return out


def _named_other(x: Array) -> bool:
    """A row named as something other than scores (`q₁ = [1,0,1,0]`, a key, a value): its numbers are not what the
    exponentials listed after it are taken of."""
    from .. import labels as lb
    refs = [r for n in (x.label, *x.labels) if n and (r := lb.parse_label(n)) is not None and r.strong]
    return bool(refs) and not any(set(r.nodes) & {"QKt", "S", "E", "row_max"} for r in refs)
