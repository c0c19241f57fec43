"""Dropped copies found by value: attention weights printed after dropout where neither the code nor the words say
so (readers/dropout.py reads those that do).

A careful reader knows a dropped copy when they see one: its rows no longer sum to 1, some entries are 0 where the
weights printed elsewhere are not, and every other entry is the weights' entry times one common factor above 1
(1/(1 - p)).  Such a printout is identified as the dropped copy, not as the weights with slips, and so is what is
computed from it: a printout equal to the copy times another printed matrix (the context vectors after dropout)
and not to the weights times it.  Both are marked `context.dropout` with the reading that identified them; the
judge says "not checked" once for each, never one finding per entry.
"""

from __future__ import annotations

import numpy as np

from ..labels import parse_label
from ..objects import Array, Document

MAX_ARRAYS = 200          # a worked example prints far fewer matrices; past this, the pairs cost too much


def _grid(a: Array) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    if a.context.partial or len(a.rows) < 2:
        return None
    g = a.grids()
    if g is None or g[2].shape[1] < 2 or not np.isfinite(g[0]).all() or not np.isfinite(g[1]).all():
        return None
    return g


def _weights(g) -> bool:
    """Rows of probabilities: entries in [0, 1], each row's sum (its printed interval) holding 1."""
    lo, hi, _ = g
    return bool((hi >= 0).all() and (lo <= 1).all() and (lo.sum(1) <= 1 + 1e-9).all()
                and (hi.sum(1) >= 1 - 1e-9).all())


def dropped_factor(m, w) -> float | None:
    """The common factor c > 1 with m = c·w on m's nonzero entries, when m is w after dropout; else None.

    m's entries that print as 0 are dropped (at least one where w is clearly not 0); at least two survive; some
    row of m does not sum to 1; at least as many survive as are dropped; one factor fits every survivor within both printouts' rounding, and 1 does not (the
    weights printed again with one entry slipped to 0 are not a dropped copy)."""
    mlo, mhi, mval = m
    wlo, whi, _ = w
    if mval.shape != w[2].shape or (mhi < 0).any():
        return None
    zero = (mlo <= 0) & (mhi >= 0)
    kept = mlo > 0
    dropped = (zero & (wlo > 0)).sum()
    if dropped < 1 or kept.sum() < max(3, dropped) or (~zero & ~kept).any():
        return None                    # dropout keeps most entries: a matrix mostly of zeros is something else
    if not ((mlo.sum(1) > 1 + 1e-9) | (mhi.sum(1) < 1 - 1e-9)).any():
        return None                    # every row still sums to 1: not a dropped copy
    if (whi[kept] <= 0).any():
        return None
    c_lo = float(np.max(mlo[kept] / whi[kept]))
    with np.errstate(divide="ignore"):
        c_hi = float(np.min(np.where(wlo[kept] > 0, mhi[kept] / np.maximum(wlo[kept], 1e-300), np.inf)))
    if c_lo > c_hi + 1e-9 or c_lo <= 1 + 1e-9:      # a factor of 1 fits: the weights again, with a slip to 0
        return None
    return max(c_lo, min(c_hi, float(np.median(mval[kept] / np.maximum(w[2][kept], 1e-300)))))


def _product_of(p, m, w, b) -> bool:
    """Does printout p equal m @ b within the rounding of all three, and not w @ b?"""
    plo, phi, pval = p
    mlo, mhi, mval = m
    blo, bhi, bval = b
    if mval.shape[1] != bval.shape[0] or pval.shape != (mval.shape[0], bval.shape[1]):
        return False
    tol = (phi - plo) / 2 + np.abs(mhi - mlo) / 2 @ np.abs(bval) + np.abs(mval) @ ((bhi - blo) / 2) + 1e-9
    if not (np.abs(pval - mval @ bval) <= tol).all():
        return False
    wtol = tol - np.abs(mhi - mlo) / 2 @ np.abs(bval) + np.abs(w[1] - w[0]) / 2 @ np.abs(bval)
    return not (np.abs(pval - w[2] @ bval) <= wtol).all()


def _named_otherwise(a: Array, may_be: tuple[str, ...] = ("A",)) -> bool:
    """Does the array's own name say it is something else (S, Q Kᵀ, V, ...) than what it may be?"""
    r = parse_label(a.label) if a.label else None
    return r is not None and r.strong and r.nodes[0] not in may_be


def mark_dropped_copies(doc: Document) -> None:
    """Mark the printouts that are weights after dropout by their values, and those computed from them."""
    arrays = [a for a in doc.arrays if not a.context.dropout][:MAX_ARRAYS]
    grids = {id(a): g for a in arrays if (g := _grid(a)) is not None}
    weights = [a for a in arrays if id(a) in grids and _weights(grids[id(a)])]
    if not weights:
        return
    copies = []
    for a in arrays:
        g = grids.get(id(a))
        if g is None or a in weights or a.all_integers() or _named_otherwise(a):
            continue
        for w in weights:
            c = dropped_factor(g, grids[id(w)])
            if c is not None:
                a.context.dropout = True
                a.context.dropped_copy = (f"its rows do not sum to 1, and its nonzero entries are the weights at "
                                          f"line {w.line} times {c:.3g}: those weights after dropout")
                copies.append((a, w))
                break
    for m, w in copies:
        for p in doc.arrays[doc.arrays.index(m) + 1:][:MAX_ARRAYS]:
            if p.context.dropout or id(p) not in grids or p.all_integers() or \
                    _named_otherwise(p, ("A", "O", "O_concat", "Y")):
                continue
            for b in arrays:
                if b is not p and b is not m and id(b) in grids and \
                        _product_of(grids[id(p)], grids[id(m)], grids[id(w)], grids[id(b)]):
                    p.context.dropout = True
                    p.context.dropped_copy = (f"it is the weights after dropout at line {m.line} times the matrix "
                                              f"at line {b.line}, not the weights at line {w.line} times it")
                    break
