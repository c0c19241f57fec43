"""Scores shown before and after the scale: a row of scores, then "with scaling (divide by 8)", then the same row
scaled (`Scores: [9.2, -3.1, 8.8]`, later `Scores: [1.15, -0.39, 1.10]`).  The text states the factor between
them, so the second row is the first times that factor, entry by entry, whatever the configuration; the inference
alone reads the second as another example's input and checks nothing in it.

Identity before verdict: both rows are named as scores (or the second by the division itself, on the line after
the first: "除以 √64=8: [...]"), have the same width (three entries or more), stand in the
same cell within MAX_GAP lines, and a stated factor between them (or on the second's line) makes at least two
thirds of the entries, and three, agree within the rounding of both rows.  Then each entry that does not agree
is one finding, on the scaled row (it is the one computed from the other)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..infer import Obj
from ..infer.written_scale import stated_scale
from ..objects import Hint, Place
from ..readers.builder import SCALE_HINTS
from ..report import Finding
from .common import _simple_kind

MAX_GAP = 30            # lines from the row as first shown to the row scaled
_SCORE_WORDS = re.compile(r"scores?|logits?|分数|得分|スコア|점수", re.I)


@dataclass
class RescaledClaim:
    x: Obj              # the scores as first shown
    y: Obj              # the same scores shown again, scaled
    scale: float        # y = scale · x: the factor the text states between them


def _scores(o: Obj) -> bool:
    return any(n in r.nodes for r in o.refs for n in ("QKt", "S")) or bool(_SCORE_WORDS.search(o.a.label or ""))


def _agree(x: Obj, y: Obj, c: float) -> np.ndarray:
    """Which entries of y are c times x's, within the rounding of both."""
    r = x.val[0] * c
    room = abs(c) * (x.hi[0] - x.lo[0]) / 2 + 1e-12
    return (r >= y.lo[0] - room) & (r <= y.hi[0] + room)


def _said_between(lines: list[str], a: int, b: int) -> list[float]:
    """The factors the lines a..b of a text state ("With Scaling (÷ √256 = 16)", "divide by 8")."""
    out = []
    for k in range(max(1, a), min(b, len(lines)) + 1):
        for kind, rx in SCALE_HINTS:
            m = rx.search(lines[k - 1])
            v = stated_scale(Hint(kind, m.group(1), Place(k), "")) if m else None
            if v is not None and v != 1:
                out.append(v)
    return out


def rescaled_pairs(objs: list[Obj], hints: list, taken: set[int], lines: list[str] = ()) -> list[RescaledClaim]:
    rows = [o for o in objs if o.val is not None and o.val.shape[0] == 1 and o.slices == 1 and o.val.shape[1] >= 3
            and np.isfinite(o.val).all() and not o.a.elided]
    out = []
    for k, y in enumerate(rows):
        if y.a.id in taken:
            continue
        # the scaled row named as scores, or named by the division itself on the next line or so ("除以 √64=8:")
        told = y.a.place.cell is None and bool(_said_between(lines, y.a.line, y.a.line))
        for x in reversed(rows[:k]):
            if x.a.place.cell != y.a.place.cell or not 0 < y.a.line - x.a.line <= MAX_GAP or \
                    x.val.shape != y.val.shape or not _scores(x) or \
                    not (_scores(y) or (told and y.a.line - x.a.line <= 2)):
                continue
            factors = [v for h in hints if h.place.cell == y.a.place.cell and x.a.line <= h.place.line <= y.a.line
                       and (v := stated_scale(h)) is not None and v != 1]
            if y.a.place.cell is None:          # said inside a block, where the readers take no hints
                factors += _said_between(lines, x.a.line, y.a.line)
            n = y.val.shape[1]
            c = next((c for c in dict.fromkeys(factors) if (ok := int(_agree(x, y, c).sum())) >= 3 and
                      3 * ok >= 2 * n), None)
            if c is not None:
                out.append(RescaledClaim(x, y, c))
                break
    return out


class RescaledJudging:
    """Judge methods for RescaledClaim."""

    def judge_rescaled(self, c: RescaledClaim) -> None:
        self.n_claims += 1
        ok = _agree(c.x, c.y, c.scale)
        self.n_numbers += len(ok)
        factor = f"1/{1 / c.scale:g}" if c.scale < 1 and math.isclose(1 / c.scale, round(1 / c.scale), rel_tol=1e-9) \
            else f"{c.scale:.6g}"
        for j in np.nonzero(~ok)[0]:
            num = c.y.a.rows[0][j]
            exact = float(c.x.val[0, j] * c.scale)
            self.add(Finding(num.line or c.y.a.line, c.y.a.place.cell,
                             f"entry {j + 1} of the scores at line {c.x.a.line} times {factor}", num.text, exact,
                             num.rounded(exact), "scale",
                             f"the scores at line {c.x.a.line} times the stated factor {factor} give "
                             f"{num.rounded(exact)}", _simple_kind(num, exact)))


def rescaled_row(claims: dict, x: Obj) -> list | None:
    """The row x as the stated factor gives it from the scores first shown, each entry that disagrees put right
    (rounded as printed), when x is such a scaled row with an entry off; else None (claims: RescaledClaim by the
    id of its scaled row)."""
    c = claims.get(x.a.id)
    if c is None:
        return None
    ok = _agree(c.x, c.y, c.scale)
    if ok.all():
        return None
    row = list(x.a.rows[0])
    for j in np.nonzero(~ok)[0]:
        row[j] = row[j].put_at(float(c.x.val[0, j] * c.scale))
    return row
