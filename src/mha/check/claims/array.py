"""The array claim: a printed matrix or vector, judged against the intermediate it was attributed to
(attribute.py), cell by cell at each cell's own precision; an elided matrix (⋯, ⋮) by its printed corners."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import labels as lb
from ..gradients import GRAD_STEP
from .. import numbers as nb
from ..infer import Hit, Obj, _family
from ..numbers import Num
from ..report import Finding, NotChecked
from .common import _show_view, _simple_kind
from .rounding import _double_rounding


@dataclass
class ArrayClaim:
    obj: Obj


class ArrayJudging:
    """Judge methods for ArrayClaim."""

    def judge_array(self, o: Obj, plan: dict[str, Any]) -> None:
        """An array by what attribution made of it (plan["kind"]): holds, elided, layout, shape, unknown or wrong."""
        a = o.a
        kind = plan["kind"]
        if a.context.partial and kind != "holds":
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o),
                                               "a running quantity of a tiled (online softmax) walk-through"))
            return
        match kind:
            case "elided":
                self.judge_elided(o)
            case "holds":
                self.n_claims += 1
                self.n_numbers += o.n
            case "layout":
                self._judge_layout(o, plan)
            case "shape":
                self._judge_misshaped(o, plan)
            case "unknown":
                self._judge_unknown(o, plan)
            case _:
                self._judge_wrong_cells(o, plan)

    def _judge_layout(self, o: Obj, plan: dict[str, Any]) -> None:
        """The labelled quantity's values in another layout: transposed, another head's, a column."""
        a = o.a
        self.n_claims += 1
        h = plan["hit"]
        label = o.ref.show()
        how = {"T": "transposed", "row": "a row of another head or token", "col": "a column"}.get(
            h.how, "the values of " + _show_view(h))
        kind2 = "transposed" if h.how == "T" else ("wrong_head" if h.view.h is not None and o.ref.head is not None
                                                    and h.view.h != o.ref.head else "wrong_value")
        self.add(Finding(a.line, a.place.cell, f"{label}", f"{list(o.val.shape)} {_short(o)}",
                         f"{list(h.view.M.shape)}", None, self.step_of(h.view.node),
                         f"{how}: these are the values of {_show_view(h)}", kind2))

    def _judge_misshaped(self, o: Obj, plan: dict[str, Any]) -> None:
        """A labelled array whose shape no view of that name has."""
        a = o.a
        self.n_claims += 1
        views = plan["views"]
        want = sorted({tuple(v.M.shape) for v in views})
        label = o.ref.show()
        node = views[0].node
        if o.val is not None and o.val.size == 1:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "a single number labelled "
                                               f"{label}"))
            return
        self.add(Finding(a.line, a.place.cell, f"shape of {label}", f"{list(o.val.shape)}",
                         " or ".join(str(list(s)) for s in want[:3]), None, self.step_of(node),
                         f"wrong shape: {label} is {' or '.join(str(list(s)) for s in want[:3])}",
                         "wrong_shape"))

    def _judge_unknown(self, o: Obj, plan: dict[str, Any]) -> None:
        """An array that matches nothing: a finding when firmly labelled, else "not checked" with its nearest view."""
        a = o.a
        hit = plan["hit"]
        nearest = distance = None
        if hit is not None and hit.view is not None:
            nearest = _show_view(hit)
            with np.errstate(invalid="ignore"):
                d = np.abs(np.where(np.isfinite(hit.exact) & np.isfinite(o.val), hit.exact - o.val, np.inf))
            distance = float(d.max()) if np.isfinite(d).any() else None
        reason = ("labelled " + o.ref.show() + " but matches nothing of that name" if o.ref is not None
                  else "no label, and it matches no intermediate")
        if o.ref is not None and o.ref.strong and o.n >= 2 and hit is not None and \
                not (o.ref.nodes[0] in GRAD_STEP and not self.vs.by_node.get(o.ref.nodes[0])):
            # a labelled array that matches nothing is a finding (a gradient only where the backward was inferred)
            self.n_claims += 1
            self.add(Finding(a.line, a.place.cell, f"{o.ref.show()}", _short(o), None, None,
                             self.step_of(o.ref.nodes[0]),
                             f"matches no {o.ref.show()} of the inferred configuration"
                             + (f"; nearest {nearest}" if nearest else ""), "wrong_value"))
            return
        self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), reason, nearest, distance))

    def _judge_wrong_cells(self, o: Obj, plan: dict[str, Any]) -> None:
        """An identified array with some wrong cells: one finding (or rounding note) per wrong cell."""
        a = o.a
        hit: Hit = plan["hit"]
        self.n_claims += 1
        self.n_numbers += o.n
        whole = self.whole_cause(o, hit, plan.get("alt"))
        bad = np.argwhere(~hit.ok)
        label = o.ref.show() if o.ref is not None else _show_view(hit)
        for i, j in bad:
            num = o.a.rows[i][j] if o.slices == 1 else _nth(o, i, j)
            if num is None:
                continue
            exact = float(hit.exact[i, j])
            vi, vj = _view_index(hit, i, j)
            step = self.step_of(hit.view.node) if hit.view is not None else "input"
            note = self.rounded_predecessor(hit, vi, vj, num, a.place, a.context.approx)
            if not note and a.prev_expr is not None:
                vec = nb.face_vector(a.prev_expr)
                if vec is not None and len(vec) == o.n and o.val.shape[0] == 1 and num.contains(vec[j]):
                    note = (f"follows from the rounded terms printed before it (they give {vec[j]:.6g}); the exact "
                            f"{exact:.6g} rounds to {num.rounded(exact)}")
            if not note:
                note = _double_rounding(num, exact)
            if note:
                self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                                 exact, num.rounded(exact), step, note, "rounded_sum", "note"))
                continue
            cause, kind2 = whole if whole else self.cell_cause(hit, vi, vj, num, o)
            self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                             exact, num.rounded(exact), step, cause, kind2))

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
                if num.contains(float(v.M[i, j]), band):
                    ok += 1
                else:
                    bad.append((pi, pj, i, j))
            if total and (best is None or ok > best[0]):
                best = (ok, total, v, bad)
        if best is None or best[0] < 0.6 * best[1]:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "elided matrix that matches nothing"))
            return
        ok, total, v, bad = best
        self.n_claims += 1
        self.n_numbers += total
        for pi, pj, i, j in bad:
            num = rows[pi][pj]
            exact = float(v.M[i, j])
            label = o.ref.show() if o.ref else lb.SHOWN.get(v.node, v.node)
            self.add(Finding(num.line or a.row_line(pi), a.place.cell, f"{label}[{i + 1},{j + 1}]", num.text, exact,
                             num.rounded(exact), self.step_of(v.node), None, _simple_kind(num, exact)))


def _what(o: Obj) -> str:
    shape = "×".join(map(str, o.a.shape))
    name = o.a.label.strip()[:40] or "unlabelled"
    return f"{name} ({shape})"


def _short(o: Obj) -> str:
    nums = [c.text for c in o.a.numbers]
    return "[" + ", ".join(nums[:6]) + (", …" if len(nums) > 6 else "") + "]"


def _nth(o: Obj, i: int, j: int) -> Num | None:
    try:
        return o.a.rows[i][j]
    except (IndexError, TypeError):
        return None


def _view_index(h: Hit, i: int, j: int) -> tuple[int, int]:
    if h.how == "T":
        return j, i
    if h.how == "row":
        return h.index, (j if h.ok.shape[0] == 1 else i)
    if h.how == "col":
        return (j if h.ok.shape[0] == 1 else i), h.index
    return i, j


def _elided_positions(rows, R: int, C: int):
    """(printed row, printed col, row, col) of each number of a matrix with ⋮ rows and ⋯ columns."""
    gap_rows = [k for k, r in enumerate(rows) if r is None]
    if len(gap_rows) > 1:
        return None
    n_rows = len(rows)
    if gap_rows:
        g = gap_rows[0]
        after = n_rows - g - 1
        if g + after > R:
            return None
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
            if g + after > C:
                return None
            col_idx = list(range(g)) + [None] + list(range(C - after, C))
        else:
            if len(r) != C:
                return None
            col_idx = list(range(C))
        for pj, c in enumerate(r):
            if c is not None and col_idx[pj] is not None:
                out.append((pi, pj, row_idx[pi], col_idx[pj]))
    return out
