"""Weights or outputs that the text itself calls unscaled, or unmasked.  Teaching documents print the softmax of
the raw scores next to the scaled one, to show why the scale is there ("Unscaled softmax row 0", "不缩放时的权重"),
and the output of a causal example without its mask, to show what the mask changes (O_unmasked), or an unmasked
example's weights again under a causal mask (A_causal).  Against the
inferred configuration such a printout mostly disagrees and was set aside as "not checked"; its own label says
which quantity it is: the same chain with the scale (or the causal mask) left out.  It is judged against that
chain when most of its cells match it (the usual identity rule), so a slip in it is found and the rest of its cells
are confirmed."""

from __future__ import annotations

from dataclasses import replace

from ..infer import Obj, _family, alignments
from ..labelwords import MASKED, UNMASKED, UNSCALED
from ..model import Views, compute
from .identity import identifies

_AFTER_SCALE = {"E", "A", "O", "row_sum"}          # what the scale changes downstream of the raw scores


def _without_scale(m: dict) -> dict | None:
    if m.get("scale") == "none":
        return None
    return {**m, "scale": "none"}


def _without_mask(m: dict) -> dict | None:
    if not m.get("causal"):
        return None
    return {k: v for k, v in m.items() if k != "causal"}


def _with_mask(m: dict) -> dict | None:
    if m.get("causal") or m.get("mask") is not None or m.get("key_lengths") is not None or "Q" in m:
        return None              # masked already, or a start after X whose rows need not be the sequence's
    return {**m, "causal": "top_left"}


# (the variant's name, the words that name it, the quantities it changes, the mapping without it / with it)
_VARIANTS = (("unscaled (named)", UNSCALED, _AFTER_SCALE, _without_scale),
             ("unmasked (named)", UNMASKED, _AFTER_SCALE | {"S"}, _without_mask),
             ("causal (named)", MASKED, _AFTER_SCALE, _with_mask))


def _words(o: Obj) -> str:
    return " ".join(x for x in [o.a.label or ""] + list(o.a.labels or []) if x)


def variant_views(j, key: str, change) -> Views | None:
    """The configuration's trace with one step left out (cached on the judge), or None when it has no such step."""
    if key not in j._alt:
        m = change(dict(j.mapping)) if j.mapping is not None else None
        t = compute(m) if m is not None else None
        j._alt[key] = Views.of(t) if t is not None else None
    return j._alt[key]


def judge_unscaled(j, o: Obj) -> bool:
    """Judge an object named unscaled (or unmasked) against the chain without that step; True when it was judged
    (held, or its wrong cells reported), False when its label does not say so or its cells do not identify it
    there."""
    if o.ref is None or o.val is None or o.slices != 1 or j.mapping is None:
        return False
    seen = j.__dict__.setdefault("_unscaled_seen", set())
    if o.a.id in seen:
        return False                              # judged once already: its doubt stands
    for key, words, changed, change in _VARIANTS:
        if set(o.ref.nodes) & changed and words.search(_words(o)):
            seen.add(o.a.id)
            return _judge_variant(j, o, key, changed, change)
    return False


def _judge_variant(j, o: Obj, key: str, changed: set, change) -> bool:
    vs = variant_views(j, key, change)
    if vs is None:
        return False
    fam = _family(o.ref)
    hits = [h for h in alignments(o, vs) if h.view is not None and h.view.node in fam and h.view.node in changed
            and j._ref_ok(o.ref, o, h)]
    if not hits:
        return False
    best = max(hits, key=lambda h: h.n_ok)
    if best.all:
        j.n_claims += 1
        j.n_numbers += o.n
        return True
    if o.val.size < 3 or not identifies(o, best):
        return False
    # a variant of its own: the cause of a wrong cell is not looked up in the configuration's traces
    best = replace(best, view=replace(best.view, variant=key))
    j._judge_wrong_cells(o, {"kind": "wrong", "hit": best, "alt": None})
    return True


class UnscaledJudging:
    """Judge mixin, first of the Judge's bases: an array the configuration does not explain whose label names it
    unscaled (unmasked) is judged against the chain without the scale (the mask) before any other reading."""

    def judge_array(self, o: Obj, plan) -> None:
        if plan["kind"] in ("holds", "elided") or not judge_unscaled(self, o):
            super().judge_array(o, plan)
