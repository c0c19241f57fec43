"""Matching a printed object with the views of a trace (an intermediate, its transpose, one head's slice, a row,
a column, a stack of slices) within the object's rounding: which of its cells each view explains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import View, Views
from .prepare import Obj


def within(lo: np.ndarray, hi: np.ndarray, M: np.ndarray, band: Any = 0.0, slack: float = 0.0) -> np.ndarray:
    """Which printed cells the values M round to (exact -inf must be printed as -inf, or as a mask's fill: -1e4 or
    below)."""
    with np.errstate(invalid="ignore", over="ignore"):
        unit = (hi - lo)
        # (two thousandths of the last digit: a value on the half-way point may round either way, numbers.Num.contains)
        tol = 1e-9 * np.maximum(1.0, np.abs(np.where(np.isfinite(M), M, 0.0))) + band + (slack + 2e-3) * unit
        ok = (M >= lo - tol) & (M <= hi + tol)
        ok |= np.isneginf(M) & np.isneginf(lo)
        ok &= ~(np.isneginf(M) ^ np.isneginf(lo))
        ok |= np.isneginf(M) & (hi <= -1e4)      # -1e9, -10000 printed where the mask puts -∞: its fill
    return ok


@dataclass
class Hit:
    """How an object lines up with a view: the whole (maybe transposed), one row, one column, or a stack."""
    view: View | None
    how: str                      # full, T, row, col, stack
    index: int | None             # row / column index
    ok: np.ndarray                # bool per printed cell
    exact: np.ndarray             # the view's values in the object's layout
    band: Any = 0.0
    views: list[View] | None = None   # for stacks

    @property
    def n_ok(self) -> int:
        return int(self.ok.sum())

    @property
    def all(self) -> bool:
        return bool(self.ok.all())


def alignments(o: Obj, vs: Views, nodes: set[str] | None = None, slack: float = 0.0,
               allow_T: bool = True) -> list[Hit]:
    """Every way the object can stand for a view of the same size."""
    if o.val is None:
        return []
    r, c = o.val.shape
    hits: list[Hit] = []
    if o.slices > 1:
        return _stack_hits(o, vs, nodes, slack)
    for v in vs.by_shape.get((r, c), []):
        if nodes is None or v.node in nodes:
            hits.append(Hit(v, "full", None, within(o.lo, o.hi, v.M, v.band, slack), v.M, v.band))
    if allow_T and r != c:
        for v in vs.by_shape.get((c, r), []):
            if nodes is None or v.node in nodes:
                band = v.band.T if isinstance(v.band, np.ndarray) else v.band
                hits.append(Hit(v, "T", None, within(o.lo, o.hi, v.M.T, band, slack), v.M.T, band))
    elif allow_T and r == c and r > 1:
        for v in vs.by_shape.get((r, c), []):
            if nodes is None or v.node in nodes:
                band = v.band.T if isinstance(v.band, np.ndarray) else v.band
                hits.append(Hit(v, "T", None, within(o.lo, o.hi, v.M.T, band, slack), v.M.T, band))
    if r == 1 or c == 1:
        vec_lo, vec_hi = (o.lo.reshape(1, -1), o.hi.reshape(1, -1))
        n = vec_lo.shape[1]
        for v in vs.by_width.get(n, []):
            if (nodes is None or v.node in nodes) and v.M.shape[0] > 1 or (v.M.shape[0] == 1 and (r, c) != (1, n)):
                ok_all = within(vec_lo, vec_hi, v.M, v.band, slack)          # every row at once
                band_rows = v.band if isinstance(v.band, np.ndarray) else None
                for i in range(v.M.shape[0]):
                    band = band_rows[i].reshape(o.lo.shape) if band_rows is not None else v.band
                    hits.append(Hit(v, "row", i, ok_all[i].reshape(o.lo.shape), v.M[i].reshape(o.lo.shape), band))
        if n > 1:
            for shape, views in vs.by_shape.items():
                if shape[0] != n:
                    continue
                for v in views:
                    if nodes is not None and v.node not in nodes:
                        continue
                    band_t = v.band.T if isinstance(v.band, np.ndarray) else v.band
                    ok_all = within(vec_lo, vec_hi, v.M.T, band_t, slack)
                    for j in range(shape[1]):
                        band = band_t[j].reshape(o.lo.shape) if isinstance(band_t, np.ndarray) else band_t
                        hits.append(Hit(v, "col", j, ok_all[j].reshape(o.lo.shape), v.M[:, j].reshape(o.lo.shape),
                                        band))
    return hits


def _stack_hits(o: Obj, vs: Views, nodes: set[str] | None, slack: float) -> list[Hit]:
    """An N-D printout ([B, T, d], [H, T, S], [B, H, T, S]) against the stacked views of one node."""
    k = o.slices
    rs, c = o.slice_shape
    hits = []
    groups: dict[tuple[str, str], list[View]] = {}
    for v in vs.by_shape.get((rs, c), []):
        if nodes is None or v.node in nodes:
            groups.setdefault((v.node, v.variant), []).append(v)
    for (node, _), views in groups.items():
        views = sorted(views, key=lambda v: ((v.b or 0), (v.h if v.h is not None else -1)))
        per_head = [v for v in views if v.h is not None]
        full = [v for v in views if v.h is None]
        options = []
        if full and len(full) == k:
            options.append(full)
        if per_head:
            B = max((v.b or 0) for v in per_head) + 1
            if len(per_head) == k:
                options.append(per_head)
            elif B > 1 or len(per_head) // max(B, 1) == k:
                first = [v for v in per_head if (v.b or 0) == 0]
                if len(first) == k:
                    options.append(first)
        if not options and k > 1 and _copies(o, rs):
            # torch.stack((inputs, inputs)): a batch of one example repeated, printed whole, against its one view
            one = full if len(full) == 1 else per_head if len(per_head) == 1 else []
            if one:
                options.append(one * k)
        for opt in options:
            M = np.concatenate([v.M for v in opt], axis=0)
            band = np.concatenate([np.broadcast_to(v.band, v.M.shape) for v in opt], axis=0)
            hits.append(Hit(opt[0], "stack", None, within(o.lo, o.hi, M, band, slack), M, band, views=opt))
    return hits


def _copies(o: Obj, rs: int) -> bool:
    """Every slice of the printout holds the printed values of the first (a batch of copies), but for at most two
    cells and under a quarter of them: room for a slip, none for a second example whose values differ."""
    val = o.val.reshape(-1, rs, o.val.shape[-1])
    differ = (val != val[:1]).reshape(val.shape[0], -1).sum(axis=1)
    return bool(np.all(differ <= min(2, (val[0].size - 1) // 4)))
