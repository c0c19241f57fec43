"""Evidence against a candidate: an assumed W = I refuted by the document's own named projections, and an input
given again with other values (another example starts there).

A weight no text states is an assumption.  When the document names its projections itself (Q, K, V as matrices,
or as tokens' rows `Q₁ = [1, 0]  K₁ = [0, 1]  V₁ = [1, 2]`) and they are not what the assumption gives, the
assumption is wrong, however many other numbers it happens to match: x₁ = [1, 0, 1, 0] split into two heads gives
[1, 0], and a Q₁ given as [1, 0] agrees by chance while K and V do not.  Each such contradicted quantity costs
the candidate its numbers (search.evaluate)."""

from __future__ import annotations

import numpy as np

from ..model import Views
from .match import alignments, within
from .prepare import Obj
from .starts import token_rows

_PROJECTED = {"W_Q": ("Q", {"Q", "Qh"}), "W_K": ("K", {"K", "Kh"}), "W_V": ("V", {"V", "Vh"})}


def assumed_weights(cand) -> frozenset:
    """The weights (W_Q, W_K, W_V, W_O) the candidate takes as I without any text stating it."""
    return frozenset(r for r in ("W_Q", "W_K", "W_V", "W_O") if r in cand.dims and isinstance(cand.dims[r].value, str)
                     and cand.dims[r].value == "identity" and "(stated" not in cand.dims[r].label)


def _assumed(cand) -> list[tuple[str, set[str]]]:
    """(role, its nodes) of each projection whose weight the candidate assumes to be I (X mode only)."""
    if cand.dims.get("mode") is None or cand.dims["mode"].value != "X":
        return []
    return [_PROJECTED[r] for r in sorted(assumed_weights(cand)) if r in _PROJECTED]


def _fitting_heads(rows: list[Obj], vs: Views, nodes: set[str]) -> set | None:
    """The heads whose view of these nodes the tokens' rows, stacked, agree with as a whole (most entries); None
    when the rows' printed intervals are not known."""
    if any(o.lo is None or o.hi is None for o in rows):
        return None
    lo, hi = np.concatenate([o.lo for o in rows]), np.concatenate([o.hi for o in rows])
    return {v.h for v in vs.views if v.node in nodes and v.M.shape == lo.shape
            and 2 * int(within(lo, hi, v.M, v.band).sum()) > lo.size}


def refuted_identity(objs: list[Obj], cand, vs: Views) -> float:
    """The numbers of the named projections that an assumed identity weight contradicts (0 when none is
    assumed): a whole Q (K, V) unlike every view of it, or its tokens' rows (two or more) unlike, as a whole, the
    view of the one head that most of the given roles fit."""
    out = 0.0
    sets: dict[str, tuple[float, set]] = {}      # role -> (its numbers, the heads its tokens' rows fit)
    for role, nodes in _assumed(cand):
        t = token_rows(objs, role)
        if t is not None and len(t[1]) >= 2 and not any(o.a.id in cand.uses for o in t[1]):
            heads = _fitting_heads(t[1], vs, nodes)
            if heads is not None:
                sets[role] = (float(t[0].size), heads)
            continue
        for o in objs:
            ref = o.ref
            if ref is None or not ref.strong or not set(ref.nodes) <= nodes or ref.row is not None or \
                    ref.col is not None or o.slices != 1 or o.val is None or o.a.id in cand.uses:
                continue
            if not any(2 * h.n_ok > o.val.size for h in alignments(o, vs)
                       if h.view is not None and h.view.node in nodes and h.how == "full"):
                out += o.val.size
    if sets:
        # q_i, k_j, v_j of one example belong to one head: the head most of them fit; the others are refuted
        counts: dict = {}
        for _, heads in sets.values():
            for h in heads:
                counts[h] = counts.get(h, 0) + 1
        common = max(counts, key=lambda h: (counts[h], h is None)) if counts else object()
        out += sum(n for n, heads in sets.values() if common not in heads)
    return out


_INPUT_ROLES = ("X", "Q", "K", "V", "W_Q", "W_K", "W_V")


def _section(key: tuple[int, int], headings: list) -> int:
    return sum(1 for h in headings if h.order <= key)


def given_again(objs: list[Obj], uses: frozenset, headings: list) -> tuple[int, int] | None:
    """The first place, after the inputs in `uses` and in another section than theirs, where an object named as
    one of them (the whole of it: no head, row or column) is printed with the same shape and other values (two
    entries or more, a quarter of them or more: not one slip in restating it): another example's input.  None
    when there is none."""
    used = [o for o in objs if o.a.id in uses and o.ref is not None and o.val is not None]
    out = None
    for u in used:
        roles = set(u.ref.nodes) & set(_INPUT_ROLES)
        home = _section(u.a.place.order, headings)
        for x in objs:
            if x.a.id in uses or x.ref is None or not x.ref.strong or not roles & set(x.ref.nodes) or \
                    x.ref.head is not None or x.ref.row is not None or x.ref.col is not None or x.val is None or \
                    x.val.shape != u.val.shape or x.slices != 1 or x.lo is None:
                continue
            at = x.a.place.order
            if at <= u.a.place.order or _section(at, headings) == home:
                continue
            if other_values(x, u) and (out is None or at < out):
                out = at
    return out


def other_values(x: Obj, u: Obj) -> bool:
    """Is x, of u's shape, u given again with other values: two entries or more, and a quarter of them or more,
    outside what x's printed digits allow (one slip in restating u is not another example)?"""
    if x.val is None or u.val is None or x.lo is None or x.val.shape != u.val.shape:
        return False
    differ = x.val.size - int(within(x.lo, x.hi, u.val).sum())
    return differ >= max(2, x.val.size / 4)


def projections_disagree(objs: list[Obj], views: Views | None, after: tuple = (0, 0), used: set = frozenset()) -> bool:
    """Does a projection the document prints by name (Q, K or V, whole or a token's row), after `after`, mostly
    disagree with the candidate (under two thirds of its entries in its best alignment)?  Then the candidate
    projects another input than the author did (X where the page projects LayerNorm(X + P)), however many later
    numbers it happens to match.  The candidate's own givens (`used`: an input the notebook calls v) and a printout
    of another shape than the quantity (no alignment at all) say nothing either way."""
    if views is None:
        return False
    for o in objs:
        if o.val is None or o.a.place.order < after or o.a.id in used:
            continue
        node = next((r.nodes[0] for r in o.refs if r.nodes in (("Q",), ("K",), ("V",))), None)
        if node is None:
            continue
        hits = alignments(o, views, {node})
        if hits and max(h.ok.mean() for h in hits) < 2 / 3:
            return True
    return False
