"""More softmax pairs (claims/softmax.py judges them): the two columns of a table (`| score | softmax weight |`,
one row per key), and a pair whose weights no longer sum to one because one of them is wrong.

A pair beside each other is tied by its names (scores, then weights) and by where it stands; the sum to 1 is what
softmax.py asks besides, to be sure the weights are these scores' softmax.  When the sum fails, most of the
weights may still be the softmax of these scores exactly: at least two of each row, and two thirds of it.  Then
the pair is these scores' softmax with a slip in it, and the weights that disagree are judged; otherwise the
pair is left alone, as before."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..infer import Obj
from .softmax import SoftmaxPairClaim, _names, _said_between


def more_softmax_pairs(objs: list[Obj], taken: set[int], said: dict | None = None) -> list[SoftmaxPairClaim]:
    out = []
    vecs = [o for o in objs if o.val is not None and o.slices == 1 and not o.a.elided and np.isfinite(o.val).all()
            and o.a.id not in taken]
    for k, y in enumerate(vecs):
        if k == 0 or not _names(y, {"A"}) or y.a.softmax_of is not None or (y.val < 0).any():
            continue
        x = vecs[k - 1]
        if x.val.shape != y.val.shape or not _names(x, {"QKt", "S"}) or x.a.place.cell != y.a.place.cell:
            continue
        if not 0 <= y.a.line - x.a.line <= 1:
            if _across_a_paragraph(x, y, said) and sum(o.a.line in (x.a.line, y.a.line) and
                                                       o.a.place.cell == y.a.place.cell for o in objs) == 2:
                out.append(SoftmaxPairClaim(x, y, told=True))
            continue
        if y.val.shape[1] == 1 and y.val.shape[0] >= 2 and x.a.style == y.a.style == "table" \
                and abs(float(y.val.sum()) - 1.0) <= 0.02 * y.val.shape[0]:
            out.append(SoftmaxPairClaim(_column(x), _column(y)))       # a table's two columns
        elif y.val.shape[1] >= 2 and _mostly_softmax(x, y):
            out.append(SoftmaxPairClaim(x, y))
    return out


FAR = 25          # lines from a named row of raw scores to its weights, a paragraph about the softmax between


def _across_a_paragraph(x: Obj, y: Obj, said: dict | None) -> bool:
    """The raw scores of one query, named so, then a paragraph that says the softmax (and maybe the scale, "divided
    by the square root of 64, which is 8") and no other number, then that query's weights, named so: one row each,
    nothing printed between them or beside either (`S_1 = .., S_2 = ..` over `A_1 = .., A_2 = ..` pairs by name, not
    by order), the weights summing to 1.  The pair is the page's own statement that these
    weights are the softmax of these scores (under the scale it states), made-up weights or not."""
    if said is None or x.a.place.cell is not None or x.val.shape[0] != 1 or x.val.shape[1] < 3:
        return False
    if not _names(x, {"QKt"}) or not x.a.label or abs(float(y.val.sum()) - 1.0) > 0.02 * y.val.shape[1]:
        return False
    last = max([x.a.line] + [n.line for n in x.a.numbers if n.line])
    first = min([y.a.line] + [n.line for n in y.a.numbers if n.line])
    if not 2 <= first - last <= FAR:
        return False
    return _said_between(said, last, first, scale_ok=True)


def _column(o: Obj) -> Obj:
    """A one-column table as the row vector it is: each number keeps its own line."""
    row = [r[0] for r in o.a.rows]
    return dataclasses.replace(o, a=dataclasses.replace(o.a, rows=[row]), val=o.val.T, lo=None, hi=None)


def _mostly_softmax(x: Obj, y: Obj) -> bool:
    """Weights that do not sum to 1 but of which each row is mostly the exact softmax of its scores."""
    if np.all(np.abs(y.val.sum(axis=1) - 1.0) <= 0.02 * y.val.shape[1]):
        return False                               # softmax.py's own pairs: not taken there for another reason
    for xr, yr in zip(x.a.rows, y.a.rows):
        s = np.array([n.value for n in xr], dtype=float)
        p = np.exp(s - s.max())
        p /= p.sum()
        hits = sum(n.contains(float(q)) for n, q in zip(yr, p))
        if hits < 2 or 3 * hits < 2 * len(yr):
            return False
    return True
