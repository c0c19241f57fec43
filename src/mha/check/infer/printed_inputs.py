"""Inputs read from printouts that need more than one object: a bias printed one vector per head, and the matrix the
printed projections take when nothing is named X."""

from __future__ import annotations

import numpy as np

from .prepare import Obj, _is, _ref_for


def per_head_bias(vectors: list[Obj], role: str, H: int, d_h: int) -> tuple | None:
    """b_K^{(1)}, b_K^{(2)} (each d_h wide) joined in head order into the bias of the whole projection: (value,
    label, uses) of a Choice, or None unless every head has one."""
    by: dict[int, Obj] = {}
    for o in vectors:
        h = _ref_for(o, role).head
        if h is not None and o.val.size == d_h:
            by.setdefault(h, o)
    if sorted(by) != list(range(H)):
        return None
    return (np.concatenate([by[h].val.reshape(-1) for h in range(H)]), f"{role} per head, printed at {by[0].a.place}",
            frozenset(o.a.id for o in by.values()))


def _printed_weights(objs: list[Obj]) -> dict[str, Obj] | None:
    ws = {r: next((o for o in objs if _is(o, r, strong_only=True) and o.slices == 1 and o.val.ndim == 2), None)
          for r in ("W_Q", "W_K", "W_V")}
    return None if any(w is None for w in ws.values()) else ws


def _before(objs: list[Obj], ws: dict[str, Obj], d_in: int, least_rows: int = 2) -> list[Obj]:
    """The matrices printed before the first of the projections, d_in wide, none of them a weight."""
    first = min(w.a.place.order for w in ws.values())
    return [o for o in objs if o.a.place.order < first and o.slices == 1 and o.val.ndim == 2
            and o.val.shape[0] >= least_rows and o.val.shape[1] == d_in and np.isfinite(o.val).all()
            and not any(_is(o, r) for r in ("W_Q", "W_K", "W_V", "W_O"))]


def fed_by_weights(objs: list[Obj]) -> Obj | None:
    """With W_Q, W_K and W_V printed and nothing named X: the last matrix printed before them whose width is W_Q's
    number of rows (a sentence's embeddings named S or E), whatever its name; the search then weighs it against the
    other starts by the numbers each explains."""
    ws = _printed_weights(objs)
    if ws is None:
        return None
    before = _before(objs, ws, ws["W_Q"].val.shape[0])
    return before[-1] if before else None


def cross_sources(objs: list[Obj]) -> list[tuple[Obj, Obj]]:
    """For a page about cross-attention, with W_Q, W_K and W_V printed: (queries' source, keys' and values'
    source) pairs among the last matrices printed before the projections (the decoder's states and the encoder's,
    in either order, whatever their names); the search keeps the pair that explains the most printed numbers."""
    ws = _printed_weights(objs)
    if ws is None:
        return []
    # an encoder's output may be named an output; weights, scores and masks are no sequence's states; and the two
    # sequences are printed under the projections' own heading, not in an example of an earlier section
    first = min(ws.values(), key=lambda w: w.a.place.order)
    near = [o for o in objs if not _derived(o) and o.a.context.heading == first.a.context.heading]
    qs = _before(near, ws, ws["W_Q"].val.shape[0], 1)[-3:]
    ks = _before(near, ws, ws["W_K"].val.shape[0], 1)[-3:]
    return [(a, b) for a in qs for b in ks if a is not b and not (
        a.val.shape == b.val.shape and np.array_equal(a.val, b.val)) and np.ptp(b.val) > 0][:6]


def _derived(o: Obj) -> bool:
    """Named as attention's weights, scores or mask (softmax(...) = [...], QKᵀ = [...]): no sequence's states."""
    return any(_is(o, r, strong_only=True) for r in ("A", "QKt", "S", "mask"))
