"""Weights or outputs that the text itself calls unscaled.  Teaching documents print the softmax of the raw scores
next to the scaled one, to show why the scale is there ("Unscaled softmax row 0", "不缩放时的权重").  Against the
inferred configuration such a printout mostly disagrees and was set aside as "not checked"; its own label says
which quantity it is: the same chain with the scale left out.  It is judged against that chain when most of its
cells match it (the usual identity rule), so a slip in it is found and the rest of its cells are confirmed."""

from __future__ import annotations

import re
from dataclasses import replace

from ..infer import Obj, _family, alignments
from ..model import Views, compute
from .identity import identifies

# the label names the quantity without the scale (not "scaled" alone, not "before scaling" of the raw scores)
UNSCALED = re.compile(r"unscaled|un-scaled|without (?:the )?scal|no scal|not scaled|w/o scal|未缩放|不缩放|没有缩放|无缩放",
                      re.I)
_AFTER_SCALE = {"E", "A", "O", "row_sum"}          # what the scale changes downstream of the raw scores


def _words(o: Obj) -> str:
    return " ".join(x for x in [o.a.label or ""] + list(o.a.labels or []) if x)


def unscaled_views(j) -> Views | None:
    """The configuration's trace with the scale left out (cached on the judge), or None when it has none."""
    key = "unscaled (named)"
    if key not in j._alt:
        m = dict(j.mapping) if j.mapping is not None else None
        t = None
        if m is not None and m.get("scale") != "none":
            m["scale"] = "none"
            t = compute(m)
        j._alt[key] = Views.of(t) if t is not None else None
    return j._alt[key]


def judge_unscaled(j, o: Obj) -> bool:
    """Judge an object named unscaled against the unscaled chain; True when it was judged (held, or its wrong
    cells reported), False when its label does not say unscaled or its cells do not identify it there."""
    if o.ref is None or o.val is None or o.slices != 1 or not set(o.ref.nodes) & _AFTER_SCALE:
        return False
    if not UNSCALED.search(_words(o)) or j.mapping is None:
        return False
    seen = j.__dict__.setdefault("_unscaled_seen", set())
    if o.a.id in seen:
        return False                              # judged once already: its doubt stands
    seen.add(o.a.id)
    vs = unscaled_views(j)
    if vs is None:
        return False
    fam = _family(o.ref)
    hits = [h for h in alignments(o, vs) if h.view is not None and h.view.node in fam and h.view.node in _AFTER_SCALE
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
    best = replace(best, view=replace(best.view, variant="unscaled (named)"))
    j._judge_wrong_cells(o, {"kind": "wrong", "hit": best, "alt": None})
    return True


class UnscaledJudging:
    """Judge mixin, first of the Judge's bases: an array the configuration does not explain whose label names it
    unscaled is judged against the chain without the scale before any other reading."""

    def judge_array(self, o: Obj, plan) -> None:
        if plan["kind"] in ("holds", "elided") or not judge_unscaled(self, o):
            super().judge_array(o, plan)
