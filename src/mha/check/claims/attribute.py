"""Which intermediate an array object stands for: its labels first (every symbol of its chain must hold), then a
majority of matching cells, then the row or head the prose names.  infer/match.py lines an object up with each
view; this module decides which alignment is the object's identity, and whether it holds, is wrong, is another
layout or shape of the labelled quantity, or matches nothing."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from .. import labels as lb
from ..gradients import GRAD_STEP
from ..infer import KEY_SIDE, Hit, Obj, _family, alignments
from .common import _simple_kind
from .premask import premask_hit


class Attribution:
    """Judge methods: an object's identity (needs self.vs, self.t, self.inf, self.objs, self.step_of)."""

    def ref_ok(self, o: Obj, h: Hit) -> bool:
        """Does this alignment agree with one of the labels?"""
        return any(self._ref_ok(r, o, h) for r in o.refs)

    def _ref_ok(self, ref: lb.Ref, o: Obj, h: Hit) -> bool:
        if h.view is None:
            return False
        fam = _family(ref)
        if h.view.node not in fam:
            return False
        if ref.head is not None and h.view.h is not None and h.view.h != ref.head and h.how != "stack":
            return False
        if ref.head is not None and h.view.h is None and h.view.node in lb.PER_HEAD:
            return False
        if ref.row is not None:
            row = ref.row
            if ref.nodes[0] in KEY_SIDE and h.view.node in ("K", "V", "Kh", "Vh"):
                row -= self.t.config.S_past if self.t is not None else 0    # this step's keys follow the cache
            if h.how == "full" and h.view.M.shape[0] == 1 and row == 0:
                pass                          # the one row of a one-row matrix (the new token of a decoding step)
            elif h.how != "row" or h.index != row:
                return False
        elif h.how in ("row", "col") and o.val is not None and o.val.shape[0] == 1 and ref.nodes[0] in (
                "X", "Q", "K", "V") and h.view.node in ("X", "Q", "K", "V", "Qh", "Kh", "Vh") and o.n > 1:
            return True
        if ref.transposed and _prime_only(ref, o):
            pass                              # S': "S modified" as often as "S transposed"; either reading
        elif ref.transposed and h.how not in ("T", "col", "row") and h.view.M.shape[0] > 1:
            return False
        if not ref.transposed and h.how == "T" and not (ref.nodes[0] in ("K", "Kh") and False):
            return False
        if ref.batch is not None and h.view.b is not None and h.view.b != ref.batch:
            return False
        return True

    def attribute(self, o: Obj) -> dict[str, Any]:
        plan = self._attribute(o)
        if plan["kind"] not in ("holds", "elided") and self._is_stated_shape(o):
            return {"kind": "holds", "hit": None}          # "Q = X  [3, 4]": the shape written beside it
        return plan

    def _is_stated_shape(self, o: Obj) -> bool:
        """A short vector of positive integers that is exactly the shape of the quantity its label names."""
        if self.vs is None or o.val is None or o.ref is None or o.val.ndim != 2 or o.val.shape[0] != 1 or not 2 <= o.val.shape[1] <= 4:
            return False
        v = o.val[0]
        if not np.all(np.isfinite(v)) or np.any(v < 1) or np.any(v != np.round(v)):
            return False
        dims = [int(x) for x in v]
        fams = set().union(*(_family(r) for r in o.refs))
        for view in self.vs.views:
            if view.node in fams and (view.b or 0) == 0:
                shape = list(view.M.shape)
                B, H = self.t.config.B, self.t.config.n_heads
                if dims in (shape, [B] + shape, [B, H] + shape, [H] + shape):
                    return True
        return False

    def _nearest_name(self, o: Obj, hits: list, symbols: list, sat: list) -> dict[str, Any] | None:
        """The words right before an array name what it is ("exponentiate, [1, e^-8, e^-10] = [1, 0.000335, ...]")
        while a stronger name further back in its sentence ("take the softmax: ...") is where it leads: the nearer
        name holds when every entry bears it out, or is what the array is judged as when most entries do and the
        farther name fits fewer."""
        near = o.refs[0]
        if near.strong or near in symbols or any(sat):
            return None
        mine = [h for h in hits if self._ref_ok(near, o, h)]
        if not mine:
            return None
        top = max(h.n_ok for h in mine)
        best = min((h for h in mine if h.n_ok == top), key=self._preference(o))
        if best.all:
            return {"kind": "holds", "hit": best}
        others = max((h.n_ok for h in hits if any(self._ref_ok(r, o, h) for r in symbols)), default=0)
        if top >= max(2, math.ceil(2 * o.val.size / 3)) and top > others:
            return {"kind": "wrong", "hit": best, "alt": None}
        return None

    def _attribute(self, o: Obj) -> dict[str, Any]:
        """What an array stands for: ('holds', hit), ('wrong', hit, alt), ('shape', views), ('unknown', nearest)."""
        if self.vs is None or o.val is None:
            return {"kind": "elided" if o.val is None else "unknown", "hit": None}
        hits = alignments(o, self.vs)
        full = [h for h in hits if h.all]
        pref = self._preference(o)
        strong = any(r.strong for r in o.refs)
        if o.ref is not None and o.ref.nodes[0] in GRAD_STEP and not any(self.vs.by_node.get(n) for n in o.ref.nodes):
            # a gradient (or the Jacobian) where the configuration has none: its values say nothing of other nodes
            return {"kind": "unknown", "hit": max(hits, key=lambda h: h.n_ok) if hits else None}
        if o.ref is not None:
            # every symbol of the chain must hold (S = QKᵀ/√2 = [...] is the scaled scores, not QKᵀ;
            # Q = K = V = [...] must be all three); prose words need only one
            symbols = [r for r in o.refs if r.strong] or o.refs
            sat = [[h for h in full if self._ref_ok(r, o, h)] for r in symbols]
            if all(sat) if strong else any(sat):
                return {"kind": "holds", "hit": min(next(x for x in sat if x), key=pref)}
            near = self._nearest_name(o, hits, symbols, sat)
            if near is not None:
                return near
            failing = next((r for r, x in zip(symbols, sat) if not x), symbols[0])
            mine = [h for h in hits if self._ref_ok(failing, o, h)]
            fam = _families(o)
            if strong and not mine and any(h.view.node in fam for h in full):
                other = min((h for h in full if h.view.node in fam), key=pref)
                return {"kind": "layout", "hit": other}
            if mine and (strong or max(h.n_ok for h in mine) >= 0.5 * o.val.size):
                top = max(h.n_ok for h in mine)
                best = min((h for h in mine if h.n_ok == top), key=pref)
                other = min(full, key=pref) if full else None
                if not strong and other is not None:
                    return {"kind": "holds", "hit": other}
                if other is None and best.n_ok < 0.25 * o.val.size and not strong:
                    return {"kind": "unknown", "hit": best}
                return {"kind": "wrong", "hit": best, "alt": other}
            if o.ref.strong and not full and o.n >= 2 and o.ref.row is None and o.ref.col is None:
                fam = _families(o)
                same = [v for v in self.vs.views if v.node in _family(o.ref) and
                        (o.ref.head is None or v.h is None or v.h == o.ref.head)]
                if same and o.slices == 1 and not any(h.view.node in fam for h in hits):
                    return {"kind": "shape", "views": same}
        if full:
            return {"kind": "holds", "hit": min(full, key=pref)}
        if hits:
            top = max(h.n_ok for h in hits)
            best = min((h for h in hits if h.n_ok == top), key=pref)
            n = o.val.size
            vector = 1 in o.val.shape
            mode = self.inf.best.cand.dims["mode"].value if self.inf.best is not None else "X"
            inputs = ("X", "W_Q", "W_K", "W_V", "W_O") + (("Q", "K", "V", "Qh", "Kh", "Vh") if mode == "QKV" else ())
            given = best.view is not None and best.view.node in inputs and not any(r.strong for r in o.refs)
            pre = premask_hit(self.t, self.vs, o, best) if best.view is not None else None
            agree = max(best.n_ok, pre.n_ok if pre is not None else 0)   # scores printed before the causal mask
            if ((not vector and agree >= max(2, math.ceil(0.6 * n)) and n >= 3) or
                    (vector and n >= 4 and agree >= math.ceil(0.75 * n))) and not given:
                # (a matrix of no name that mostly looks like a given, the feed-forward layer's W_1 of 0s and 1s
                # beside a W^Q of 0s and 1s, is another matrix: a given's slip shows where it is printed as given)
                return {"kind": "wrong", "hit": best, "alt": None}
            # no label, but the sentence names the row: "the first row is [1.5989, -0.0056]"
            if vector and o.row_hint is not None and n >= 2:
                rows = [h for h in hits if h.how == "row" and h.index == o.row_hint - self.inf.bases.row
                        - (0 if h.view.node in KEY_SIDE else self.inf.bases.query)
                        and (o.head_hint is None or h.view.h is None or h.view.h == o.head_hint)]
                if rows:
                    most = max(h.n_ok for h in rows)
                    top = min((h for h in rows if h.n_ok == most), key=pref)
                    if most >= max(1, n / 2) and self._near_misses(o, top):
                        return {"kind": "wrong", "hit": top, "alt": None}
            # a short vector in a sentence about one head: "head 0 puts ... (0.49, 0.4375, 0.4421)"
            if vector and o.head_hint is not None and n >= 3:
                own = [h for h in hits if h.view is not None and h.view.h == o.head_hint
                       and (o.batch_hint is None or (h.view.b or 0) == o.batch_hint - self._batch_base())]
                if own:
                    most = max(h.n_ok for h in own)
                    top = min((h for h in own if h.n_ok == most), key=pref)
                    if most >= n - 1 and self._near_misses(o, top):
                        return {"kind": "wrong", "hit": top, "alt": None}
            # no label, but the surrounding text names the head (and sequence): "Head 2", a head column
            if o.head_hint is not None and n >= 2:
                placed = [h for h in hits if h.view is not None and h.view.h == o.head_hint and h.how == "full"
                          and (o.batch_hint is None or (h.view.b or 0) == o.batch_hint - self._batch_base())]
                if placed:
                    most = max(h.n_ok for h in placed)
                    top = min((h for h in placed if h.n_ok == most), key=pref)
                    if top.n_ok >= max(1, n / 2):
                        return {"kind": "wrong", "hit": top, "alt": None}
            return {"kind": "unknown", "hit": best}
        return {"kind": "unknown", "hit": None}

    def _near_misses(self, o: Obj, h: Hit) -> bool:
        """Every wrong cell is a usual slip of the right value (sign, swapped digits, a near miss)."""
        for i, j in np.argwhere(~h.ok):
            num = o.a.rows[i][j] if o.slices == 1 else None
            x = float(h.exact[i, j])
            if num is None or not math.isfinite(x):
                return False
            if _simple_kind(num, x) == "wrong_value" and abs(num.value - x) > 0.05 * max(abs(x), 1e-9):
                return False
        return True

    def _batch_base(self) -> int:
        hints = [o.batch_hint for o in self.objs if o.batch_hint is not None]
        return 0 if 0 in hints else 1

    def _preference(self, o: Obj):
        order = {n: k for k, n in enumerate(lb.ORDER)}
        inputs = {"X", "W_Q", "W_K", "W_V", "W_O"}

        def key(h: Hit):
            v = h.view
            p = 0
            if o.ref is not None and v.node not in _families(o):
                p += 100
            elif o.ref is not None and v.node in o.ref.nodes:
                p += o.ref.nodes.index(v.node)
            if o.head_hint is not None and v.h is not None and v.h != o.head_hint:
                p += 10
            if v.variant:
                p += 3
            if h.how in ("T", "col"):
                p += 5
            if v.node in inputs and (o.ref is None or v.node not in _families(o)) and o.a.context.step != "input":
                p += 2
            if o.a.context.step and self.step_of(v.node) == o.a.context.step:
                p -= 0.5                   # the section says which step this is (labels weigh more)
            rank = order.get(v.node, 99)
            if v.node == "O_concat" and self.t is not None and self.t.config.n_heads == 1:
                rank = order["O"] + 0.5          # one head: its output is the concatenation; call it A V
            return (p, rank, v.b or 0, v.h or 0, h.index or 0)
        return key


def _families(o: Obj) -> set[str]:
    out: set[str] = set()
    for r in o.refs:
        out |= _family(r)
    return out


def _prime_only(ref: lb.Ref, o: Obj) -> bool:
    """Is the label's transpose only a prime (S', S′), not a written ᵀ or ^T?"""
    names = [x for x in [o.a.label, *o.a.labels] if x]
    return any(x.rstrip().endswith(("'", "′")) for x in names) and not any(
        re.search(r"\^\{?(?:T|\\top|⊤)\}?|ᵀ|\.T\b|transpose", x) for x in names)
