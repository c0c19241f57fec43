"""Weights normalised down the columns: `np.exp(S) / np.exp(S).sum(axis=0)`, a slip in code written by hand, gives
a matrix whose columns sum to 1 and whose rows do not.  Such a printout matches no view, so it was set aside as
"not checked".  When every cell of an array named as the weights is the column-wise softmax of the configuration's
scores, the array is identified by that whole computation (nothing is left to chance in a full match of every
cell) and the slip is one finding: the softmax was taken over the wrong axis."""

from __future__ import annotations

import numpy as np

from ..infer import Obj, within
from ..report import Finding
from .identity import _short


def _column_softmax(S: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.where(np.isfinite(S), S, -np.inf)
        top = finite.max(axis=0, keepdims=True)
        e = np.exp(finite - np.where(np.isfinite(top), top, 0.0))
        return e / e.sum(axis=0, keepdims=True)


def column_softmax_finding(j, o: Obj) -> Finding | None:
    """One finding for an array named as the weights that is, cell for cell, a head's scores normalised down the
    columns (and not also the row-wise weights: a symmetric case says nothing)."""
    t = j.t
    if t is None or o.ref is None or "A" not in o.ref.nodes or o.val is None or \
            o.slices != 1 or o.val.shape[0] < 2 or o.val.shape[0] != o.val.shape[1]:
        return None
    for b in range(t.S.shape[0]):
        for h in range(t.S.shape[1]):
            S = t.S[b, h]
            if S.shape != o.val.shape:
                continue
            C = _column_softmax(S)
            if not np.isfinite(C).all() or within(o.lo, o.hi, t.A[b, h]).all():
                continue
            if within(o.lo, o.hi, C).all():
                head = f" of head {h + 1}" if t.S.shape[1] > 1 else ""
                return Finding(o.a.line, o.a.place.cell, o.ref.show(), f"{list(o.val.shape)} {_short(o)}",
                               f"{list(S.shape)}", None, "softmax",
                               f"softmax over the wrong axis: these are the scores{head} normalised down each "
                               "column (axis=0); each row of the weights should sum to 1", "wrong_axis")
    return None
