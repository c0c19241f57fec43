"""Weights normalised over the whole matrix instead of row by row: `e = np.exp(x - x.max()); e / e.sum()` (a softmax
written by hand without an axis, or scipy's `softmax(x)`, whose default is axis=None) gives a printout whose n²
entries sum to 1 and whose rows sum to about 1/n.  Printed right after the scores it came from, every entry is
e^s over the sum of all the exponentials: that whole computation identifies it (nothing is left to chance when
every entry matches), and the slip is one finding, the axis, not one per entry."""

from __future__ import annotations

import numpy as np

from .. import labels as lb
from ..infer import Obj
from ..report import Finding

_BACK = 2            # the scores are one of the two arrays printed just before


def whole_softmax_of(grids: list[Obj], k: int, softmax_box, halves, widened) -> Obj | None:
    """The printout before y (one of the two before it, of y's shape, all finite) whose softmax over all its
    entries y is, entry for entry, when y's rows do not each sum to 1; else None."""
    y = grids[k]
    if y.slices != 1 or y.val.shape[0] < 2 or y.val.shape[1] < 2 or not np.isfinite(y.val).all() or \
            (y.val < 0).any() or np.all(np.abs(y.val.sum(axis=1) - 1) <= 0.02 * y.val.shape[1]):
        return None
    for x in reversed(grids[max(0, k - _BACK):k]):
        if x.slices != 1 or x.val.shape != y.val.shape or not np.isfinite(x.val).all():
            continue
        if not (_names(y, {"A"}) or _names(x, {"S", "QKt"})):
            continue                         # neither is named as the weights or the scores: another computation
        pmin, pmax = softmax_box(x.val.reshape(1, -1), halves(x).reshape(1, -1))
        lo, hi = widened(y)
        if np.all((pmax.reshape(y.val.shape) >= lo - 1e-9) & (pmin.reshape(y.val.shape) <= hi + 1e-9)):
            return x
    return None


def _names(o: Obj, nodes: set[str]) -> bool:
    r = lb.parse_label(o.a.label) if o.a.label else None
    return r is not None and bool(set(r.nodes) & nodes)


def judge_whole_softmax(j, y: Obj, x: Obj) -> None:
    """One finding on the weights' first line: the softmax was taken over the whole matrix."""
    j.n_numbers += int(y.val.size)
    sums = y.val.sum(axis=1)
    j.add(Finding(y.a.line, y.a.place.cell, f"{y.a.label or 'weights'}: its rows", f"row sums {sums.min():.3g} to "
                  f"{sums.max():.3g}", 1.0, "1", "softmax",
                  f"softmax over the whole matrix: each entry is e^s over the sum of all {y.val.size} exponentials of "
                  f"the scores printed at {_at(x)}, not of its row; each row of attention weights sums to 1 "
                  "(softmax over the last axis)", "wrong_axis"))


def _at(o: Obj) -> str:
    return (f"cell {o.a.place.cell}, " if o.a.place.cell is not None else "") + f"line {o.a.line}"
