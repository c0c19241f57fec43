"""An elided matrix (printed with ⋯ / ⋮): its printed corners judged against the intermediate they match."""

from __future__ import annotations

import re

import numpy as np

from .. import labels as lb
from ..infer import Obj, _family
from ..numbers import MASK_FILL
from ..report import Finding, NotChecked
from .array import _what
from .common import _simple_kind

_ARITH = re.compile(r"\d\s*[-+*/×·]\s*\.?\d")


class ElidedJudging:
    """Judge method for an ArrayClaim whose matrix is elided (a mixin of Judge)."""

    def judge_elided(self, o: Obj) -> None:
        """A matrix printed with ⋯ / ⋮: compare the printed corners."""
        a = o.a
        if self.vs is None:
            return
        rows = a.rows
        fam = _family(o.ref) if o.ref is not None else None
        best = None
        for v in self.vs.views:
            if fam is not None and v.node not in fam:
                continue
            R, C = v.M.shape
            pos = _elided_positions(rows, R, C)
            if pos is None:
                continue
            ok = total = 0
            bad = []
            for (pi, pj, i, j) in pos:
                num = rows[pi][pj]
                total += 1
                band = v.band[i, j] if isinstance(v.band, np.ndarray) else v.band
                if num.contains(float(v.M[i, j]), band) or (np.isneginf(v.M[i, j]) and num.value <= MASK_FILL):
                    ok += 1                       # (-1e9 printed where the mask puts -∞: its fill, as match.within)
                else:
                    bad.append((pi, pj, i, j))
            if total and (best is None or ok > best[0]):
                best = (ok, total, v, bad)
        if best is None or best[0] < 0.6 * best[1]:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "elided matrix that matches nothing"))
            return
        ok, total, v, bad = best
        if any(rows[pi][pj].value <= -1e4 < float(v.M[i, j]) for pi, pj, i, j in bad):
            self.not_checked_mask_fill(o, _what(o))          # claims/maskfill.py
            return
        if bad and all(float(v.M[i, j]) <= -1e4 < rows[pi][pj].value for pi, pj, i, j in bad):
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "finite only where the mask puts "
                                               "−∞: the scores before the mask is applied, not judged as masked"))
            return
        if bad and any(_ARITH.search(n.text) for r in rows if r for n in r if n is not None):
            # [0.042 + 0.08, 0.05 + 0.14, ...]: sums written in the cells; where they miss the trace, the slip is in
            # the line that prints their values (cellwise.py, arith.py judge it), not in the written terms
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "arithmetic written in its cells, "
                                               "not all of it the inferred values: judged where its values are "
                                               "printed"))
            return
        self.n_claims += 1
        self.n_numbers += total
        for pi, pj, i, j in bad:
            num = rows[pi][pj]
            exact = float(v.M[i, j])
            label = o.ref.show() if o.ref else lb.SHOWN.get(v.node, v.node)
            self.add(Finding(num.line or a.row_line(pi), a.place.cell, f"{label}[{i + 1},{j + 1}]", num.text, exact,
                             num.rounded(exact), self.step_of(v.node), None, _simple_kind(num, exact)))


def _elided_positions(rows, R: int, C: int):
    """(printed row, printed col, row, col) of each number of a matrix with ⋮ rows and ⋯ columns."""
    gap_rows = [k for k, r in enumerate(rows) if r is None]
    if len(gap_rows) > 1:
        return None
    n_rows = len(rows)
    if gap_rows:
        g = gap_rows[0]
        after = n_rows - g - 1
        if g + after >= R:
            return None          # (⋮ stands for one row at least: three rows and ⋮ are no 3-row matrix)
        row_idx = list(range(g)) + [None] + list(range(R - after, R))
    else:
        if n_rows != R:
            return None
        row_idx = list(range(R))
    out = []
    for pi, r in enumerate(rows):
        if r is None:
            continue
        gaps = [k for k, c in enumerate(r) if c is None]
        if len(gaps) > 1:
            return None
        if gaps:
            g = gaps[0]
            after = len(r) - g - 1
            if g + after >= C:
                return None      # `[0.72, 0.31, 0.18, ...]`: more than three entries, no row of a 3-wide matrix
            col_idx = list(range(g)) + [None] + list(range(C - after, C))
        else:
            if len(r) != C:
                return None
            col_idx = list(range(C))
        for pj, c in enumerate(r):
            if c is not None and col_idx[pj] is not None:
                out.append((pi, pj, row_idx[pi], col_idx[pj]))
    return out
