"""Judging what a document claims, as a careful reader would, against the inferred configuration.

Each kind of claim is a type (`ArrayClaim`, `ArithClaim`, `ShapeClaim`, `ProductShapeClaim`,
`SizeClaim`, `ScalarClaim`, `ReadingClaim`), judged by one `match` in `Judge.judge`.

* A printed number is right when the exact value rounds to it at its own precision, widened by
  what the rounding of printed inputs can move it (model.bands).
* A value that follows from the rounded values printed before it (A printed to 4 decimals, then
  O computed from that A) is accepted with a note, not a finding.
* An arithmetic line is checked against its own printed terms (interval arithmetic) and, when it
  computes an entry of the trace, against the exact value.
* A finding needs evidence: a label, a majority of matching cells, or an arithmetic line whose
  terms disagree.  What cannot be attributed is reported as not checked, with its nearest match.
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs import MHAInputError
from . import labels as lb
from . import numbers as nb
from .infer import KEY_SIDE, Hit, Inference, Obj, _family, alignments, within
from .model import View, Views, bands, compute, half_units
from .numbers import Num
from .objects import (ArrayPart, Chain, Document, ExprPart, LabelPart, Place, Reading, ShapePart, ShapeProduct)
from .report import Finding, NotChecked

STEP = lb.STEP


# ------------------------------------------------------------------ claim types

@dataclass
class ArrayClaim:
    obj: Obj


@dataclass
class ArithClaim:
    chain: Chain


@dataclass
class ShapeClaim:
    ref: lb.Ref
    label: str
    dims: list[int]
    place: Place
    text: str


@dataclass
class ProductShapeClaim:
    part: ShapeProduct
    label: str
    place: Place
    step_hint: str | None


@dataclass
class SizeClaim:
    symbol: str
    value: Num
    place: Place
    text: str


@dataclass
class ScalarClaim:
    ref: lb.Ref
    value: Num
    place: Place
    text: str
    head_hint: int | None
    row_hint: int | None


@dataclass
class ReadingClaim:
    reading: Reading


@dataclass
class VectorArithClaim:
    """[0.80 + 0.80, 0.80 - 0.80] = [1.60, 0.00], or 0.4 [1, 0] + 0.6 [0, 1] = [0.4, 0.6]: a vector of sums."""
    chain: Chain
    k: int                    # the expression (or array of expressions) is part k, the printed result part k + 1


Claim = ArrayClaim | ArithClaim | ShapeClaim | ProductShapeClaim | SizeClaim | ScalarClaim | ReadingClaim | \
    VectorArithClaim

SIZE_SYMBOLS = {"B": "B", "T": "T", "S": "S", "d": "d_model", "d_model": "d_model", "d_{model}": "d_model",
                "dmodel": "d_model", "H": "H", "h": "H", "n_heads": "H", "num_heads": "H", "n_head": "H",
                "d_h": "d_k", "d_k": "d_k", "d_{k}": "d_k", "d_{h}": "d_k", "d_head": "d_k", "head_dim": "d_k",
                "d_v": "d_v", "d_{v}": "d_v", "n_kv_heads": "G", "G": "G"}


def _size_key(text: str) -> str | None:
    key = re.sub(r"[\\{}\s]|mathrm|text", "", text)
    key = key.replace("d_model", "d_model")
    return SIZE_SYMBOLS.get(key) or SIZE_SYMBOLS.get(text.strip())


# ------------------------------------------------------------------ the judge

class Judge:
    def __init__(self, doc: Document, inf: Inference, mapping: dict[str, Any] | None, given: bool):
        self.doc = doc
        self.inf = inf
        self.objs = inf.objs
        self.findings: list[Finding] = []
        self.not_checked: list[NotChecked] = []
        self.n_claims = 0
        self.n_numbers = 0
        self.mapping = mapping
        self.t = compute(mapping) if mapping is not None else None
        if given and self.t is None:
            raise MHAInputError("--input: the configuration could not be computed")
        self.vs = Views.of(self.t) if self.t is not None else None
        self.uses = frozenset() if given or inf.best is None else inf.best.cand.uses
        if self.vs is not None:
            self._rebase()
            self._rows_of_inputs()
        if self.vs is not None and not given:
            self._bands()
        self._alt: dict[str, Views | None] = {}
        self.printed_at: dict[tuple, list[tuple[tuple, np.ndarray]]] = {}
        self.attributed: dict[int, Hit] = {}
        self._trace_values: list[float] | None = None

    # ---------------------------------------------------------- set-up
    def _rebase(self) -> None:
        """Count rows and heads from 0 or from 1, whichever makes more labelled objects land on their row."""
        from dataclasses import replace as _replace
        # the configuration says how a decoding step numbers its query rows and how GQA numbers its K/V heads
        self.inf.bases = self.inf.bases.with_config(self.t.config)
        for o in self.objs:
            o.refs = [self.inf.bases.resolve(r) for r in o.refs]
            o.ref = o.refs[0] if o.refs else None
        # "A1", "A2" in a one-head document are rows, not heads
        H = self.t.config.n_heads
        over = {r.nodes[0] for o in self.objs for r in o.refs
                if r.raw_head is not None and r.raw_row is None and r.raw_head - self.inf.bases.head >= H
                and not r.nodes[0].startswith("W_")}
        for o in self.objs:
            o.refs = [self.inf.bases.resolve(_replace(r, raw_row=r.raw_head, raw_head=None))
                      if r.nodes[0] in over and r.raw_head is not None and r.raw_row is None else r for r in o.refs]
            o.ref = o.refs[0] if o.refs else None
        # names like w_123 in code are names, not rows: drop an index no row or head has
        T = max((v.M.shape[0] for v in self.vs.views), default=0)
        for o in self.objs:
            keep = [r for r in o.refs if not ((r.raw_row is not None and r.raw_row - self.inf.bases.row >= T) or
                                              (r.raw_head is not None and r.raw_head - self.inf.bases.head >= max(H, 1)
                                               and r.nodes[0].startswith("W_") is False and r.raw_row is None))]
            if len(keep) != len(o.refs):
                o.refs = keep
                o.ref = keep[0] if keep else None
        best = None
        for hb in (1, 0):
            for rb in (1, 0):
                bases = _replace(self.inf.bases, head=hb, row=rb)
                score = 0
                for o in self.objs:
                    if o.val is None or not o.refs:
                        continue
                    raw = [r for r in o.refs if r.raw_row is not None or r.raw_head is not None]
                    if not raw:
                        continue
                    trial = _replace(o, refs=[bases.resolve(_raw(r)) for r in o.refs])
                    if any(h.all and self.ref_ok(trial, h) for h in alignments(trial, self.vs)):
                        score += 1
                if best is None or score > best[0]:
                    best = (score, bases)
        if best is None or best[1] == self.inf.bases:
            return
        bases = best[1]
        self.inf.bases = bases
        for o in self.objs:
            o.refs = [bases.resolve(_raw(r)) for r in o.refs]
            o.ref = o.refs[0] if o.refs else None

    def _rows_of_inputs(self) -> None:
        """"[1,1] · Wk = [...]": the row of K whose input row is the printed [1,1]."""
        from dataclasses import replace as _replace
        cfg = self.t.config
        if cfg.X is None:
            return
        X = np.asarray(cfg.X[0], dtype=float)
        for o in self.objs:
            new = []
            for r in o.refs:
                if r.of is not None and r.row is None and len(r.of) == X.shape[1]:
                    hits = [i for i in range(X.shape[0]) if np.allclose(X[i], r.of, atol=1e-6)]
                    if len(hits) == 1:
                        r = _replace(r, row=hits[0], raw_row=hits[0] + self.inf.bases.row + self.inf.bases.query)
                new.append(r)
            o.refs = new
            o.ref = new[0] if new else None

    def _bands(self) -> None:
        radii = {}
        by_id = {o.a.id: o for o in self.objs}
        best = self.inf.best
        for key, choice in best.cand.dims.items():
            if key not in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V") or not choice.uses:
                continue
            if key in ("Q", "K", "V"):
                ids = sorted(best.cand.dims["mode"].uses)
                src = [by_id[i] for i in ids if i in by_id and lb_is(by_id[i], key)]
            else:
                src = [by_id[i] for i in sorted(choice.uses) if i in by_id]
            if len(src) != 1 or src[0].slices != 1:
                continue
            r = half_units(src[0].a.rows)
            arr = np.asarray(self.mapping.get(key))
            if r is None or arr.ndim != 2:
                continue
            if r.shape == arr.shape:
                radii[key] = r
            elif r.T.shape == arr.shape:
                radii[key] = r.T
        cache = best.cand.dims.get("cache")
        if cache is not None and cache.value is not None and isinstance(self.mapping.get("cache"), dict):
            # a printed cache (K_cache, V_cache of each K/V head) is rounded like any other input
            for name, node in (("K", "Kc"), ("V", "Vc")):
                src = sorted((by_id[i] for i in cache.uses if i in by_id and by_id[i].ref is not None
                              and by_id[i].ref.nodes[0] == node), key=lambda o: o.ref.head or 0)
                rs = [half_units(o.a.rows) for o in src]
                arr = np.asarray(self.mapping["cache"][name])
                if rs and all(r is not None for r in rs) and np.stack(rs).shape == arr.shape:
                    radii["cache." + name] = np.stack(rs)
        if radii:
            bands(self.mapping, radii, self.vs)

    def alt(self, kind: str) -> Views | None:
        """The trace of a usual mistake: the scale left out (or added)."""
        if kind not in self._alt:
            m = dict(self.mapping)
            if kind == "scale":
                m["scale"] = "none" if m.get("scale") in (None, "1/sqrt(d_k)", "1/d_k") else "1/sqrt(d_k)"
            t = compute(m)
            self._alt[kind] = Views.of(t) if t is not None else None
        return self._alt[kind]

    # ---------------------------------------------------------- claims
    def claims(self) -> list[Claim]:
        out: list[Claim] = []
        for o in self.objs:
            if o.a.id not in self.uses:
                out.append(ArrayClaim(o))
        for c in self.doc.chains:
            out.extend(self.chain_claims(c))
        for r in self.doc.readings:
            out.append(ReadingClaim(r))
        return out

    def chain_claims(self, c: Chain) -> list[Claim]:
        out: list[Claim] = []
        parts = c.parts
        labels = [p for p in parts if isinstance(p, LabelPart)]
        exprs = [p for p in parts if isinstance(p, ExprPart)]
        # sizes: T = 3, d_h = 2, d = H·d_h = 2 × 2 = 4
        if labels and exprs:
            key = _size_key(labels[0].text)
            last = nb.plain_number(exprs[-1].expr)
            if key and last is not None and parts.index(labels[0]) == 0 and last.decimals is None:
                out.append(SizeClaim(key, last, c.place, c.text))
        # shapes: Q, K ∈ ℝ^{3×4}
        for k, p in enumerate(parts):
            if isinstance(p, ShapePart):
                left = [q for q in parts[:k] if isinstance(q, LabelPart)]
                for lab in (_split_labels(left[-1].text) if left else []):
                    for piece in [lab]:
                        ref = lb.parse_label(piece)
                        if ref is not None:
                            place = Place(p.line or c.place.line, c.place.cell, c.place.where)
                            out.append(ShapeClaim(ref, piece, p.dims, place, c.text))
            if isinstance(p, ShapeProduct):
                label = next((q.text for q in reversed(parts[:k]) if isinstance(q, LabelPart)), "")
                out.append(ProductShapeClaim(p, label, c.place, c.context.step))
        # a vector of sums and the vector it gives
        for k in range(len(parts) - 1):
            a, b = parts[k], parts[k + 1]
            if isinstance(b, ArrayPart) and b.array.is_vector and (
                    (isinstance(a, ExprPart) and nb.face_vector(a.expr) is not None) or
                    (isinstance(a, ArrayPart) and a.array.is_vector and any(
                        re.search(r"[-+*/×·]", n.text.lstrip("-+")) for n in a.array.numbers))):
                out.append(VectorArithClaim(c, k))
        # arithmetic: at least one expression that is more than a number, or a label = number
        if len(exprs) >= 2 or (exprs and labels and not any(isinstance(x, (ShapePart, ShapeProduct))
                                                             for x in parts)):
            if not (out and isinstance(out[0], SizeClaim) and len(exprs) == 1):
                out.append(ArithClaim(c))
        return out

    # ---------------------------------------------------------- driver
    def run(self) -> None:
        claims = self.claims()
        # a batch of which the document shows one sequence: "B = 2", then only sequence 1
        self.stated_B = max((int(c.value.value) for c in claims if isinstance(c, SizeClaim) and c.symbol == "B"),
                            default=None)
        arrays = [c for c in claims if isinstance(c, ArrayClaim)]
        # first every array finds what it stands for; the printed values then feed "rounded predecessors"
        plans = {c.obj.a.id: self.attribute(c.obj) for c in arrays}
        self.judge_repairs()
        self.collect_printed(plans)
        for c in claims:
            self.judge(c, plans)

    def judge(self, claim: Claim, plans: dict[int, Any]) -> None:
        match claim:
            case ArrayClaim(obj):
                self.judge_array(obj, plans[obj.a.id])
            case ArithClaim(chain):
                self.judge_arith(chain)
            case ShapeClaim():
                self.judge_shape(claim)
            case ProductShapeClaim():
                self.judge_product(claim)
            case SizeClaim():
                self.judge_size(claim)
            case ScalarClaim():
                pass
            case ReadingClaim(reading):
                self.judge_reading(reading)
            case VectorArithClaim(chain, k):
                self.judge_vector_arith(chain, k, plans)

    # ---------------------------------------------------------- arrays
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
        if ref.transposed and h.how not in ("T", "col", "row") and h.view.M.shape[0] > 1:
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

    def _attribute(self, o: Obj) -> dict[str, Any]:
        """What an array stands for: ('holds', hit), ('wrong', hit, alt), ('shape', views), ('unknown', nearest)."""
        if self.vs is None or o.val is None:
            return {"kind": "elided" if o.val is None else "unknown", "hit": None}
        hits = alignments(o, self.vs)
        full = [h for h in hits if h.all]
        pref = self._preference(o)
        strong = any(r.strong for r in o.refs)
        if o.ref is not None:
            # every symbol of the chain must hold (S = QKᵀ/√2 = [...] is the scaled scores, not QKᵀ;
            # Q = K = V = [...] must be all three); prose words need only one
            symbols = [r for r in o.refs if r.strong] or o.refs
            sat = [[h for h in full if self._ref_ok(r, o, h)] for r in symbols]
            if all(sat) if strong else any(sat):
                return {"kind": "holds", "hit": min(next(x for x in sat if x), key=pref)}
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
            if (not vector and best.n_ok >= max(2, math.ceil(0.6 * n)) and n >= 3) or \
                    (vector and n >= 4 and best.n_ok >= math.ceil(0.75 * n)):
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

    def collect_printed(self, plans: dict[int, Any]) -> None:
        """The document's own printed values of each view, for recomputing a step from them.

        Every view an object matches in full gets its values (V^(1) printed as X when W_V = I); an
        object with wrong cells gives its values to the view it was attributed to.
        """
        self.printed_at: dict[tuple, list[tuple[int, np.ndarray]]] = {}
        for o in self.objs:
            plan = plans.get(o.a.id)
            if plan is None or o.val is None:
                continue
            hits = [h for h in alignments(o, self.vs) if h.all] if self.vs is not None else []
            if plan["kind"] == "wrong" and plan["hit"] is not None:
                hits.append(plan["hit"])
            for h in hits:
                if h.how == "stack" or h.view is None:
                    continue
                v = h.view
                grid = np.full(v.M.shape, np.nan)
                vals = o.val
                if h.how == "full":
                    grid[:] = vals
                elif h.how == "T":
                    grid[:] = vals.T
                elif h.how == "row":
                    grid[h.index] = vals.reshape(-1)
                elif h.how == "col":
                    grid[:, h.index] = vals.reshape(-1)
                key = (v.node, v.b or 0, v.h, v.variant)
                self.printed_at.setdefault(key, []).append((_order(o.a.place), grid))

    def printed_grid(self, key: tuple, before: tuple | None) -> np.ndarray | None:
        """The printed values of a view, the latest printed before `before` winning."""
        entries = self.printed_at.get(key)
        if not entries:
            return None
        use = [g for at, g in entries if before is None or at < before] or [g for _, g in entries]
        out = np.full(use[0].shape, np.nan)
        for g in use:
            out = np.where(np.isnan(g), out, g)
        return out

    def from_printed(self, v: View, before: tuple | None = None) -> np.ndarray | None:
        """A step recomputed from the printed (rounded) values of the step before it."""
        t, c = self.t, self.t.config
        b, h = v.b or 0, v.h

        def P(node: str, hh: int | None = None, variant: str = "") -> np.ndarray | None:
            return self.printed_grid((node, b, hh, variant), before)
        with np.errstate(all="ignore"):
            if v.node == "O" and h is not None:
                # a decoding step mixes the values of the cache and the new tokens (V_all)
                A, Vh = P("A", h), P("Vr" if c.cache_K is not None else "Vh", h)
                if A is not None and Vh is not None and A.shape[1] == Vh.shape[0]:
                    return A @ Vh
            if v.node == "A" and h is not None:
                S = P("S", h)
                if S is None and P("QKt", h) is not None:
                    S = P("QKt", h) * c.effective_scale + np.where(t.S[b, h] > -np.inf, 0, -np.inf)
                if S is not None:
                    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
                        warnings.simplefilter("ignore", RuntimeWarning)    # a row of printed NaN / all masked
                        e = np.exp(S - np.nanmax(S, axis=-1, keepdims=True))
                        return e / e.sum(axis=-1, keepdims=True)
            if v.node == "S" and h is not None:
                QK = P("QKt", h)
                if QK is not None:
                    return QK * c.effective_scale + np.where(t.S[b, h] > -np.inf, 0, -np.inf)
            if v.node == "QKt" and h is not None:
                Qp = P("Qr" if t.Qh_rope is not None else "Qh", h)
                Kp = P("Kr" if t.Kh_rope is not None or c.cache_K is not None else "Kh", h)
                if Qp is not None and Kp is not None and Qp.shape[1] == Kp.shape[1]:
                    return Qp @ Kp.T
            if v.node == "O_concat":
                parts = [P("O", k) for k in range(c.n_heads)]
                if all(p is not None for p in parts):
                    return np.concatenate(parts, axis=1)
            if v.node == "Y" and c.W_O is not None:
                Oc = P("O_concat")
                if Oc is not None:
                    return Oc @ c.W_O + (0 if c.b_O is None else c.b_O)
            if v.node == "row_sum" and h is not None:
                E = P("E", h, v.variant)
                if E is not None:
                    return E.sum(axis=-1)[None, :]
            if v.node == "E" and h is not None:
                S = P("S", h)
                if S is not None:
                    return np.exp(S) if v.variant else np.exp(S - np.nanmax(S, axis=-1, keepdims=True))
        return None

    def judge_array(self, o: Obj, plan: dict[str, Any]) -> None:
        a = o.a
        kind = plan["kind"]
        if a.context.partial and kind != "holds":
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o),
                                               "a running quantity of a tiled (online softmax) walk-through"))
            return
        if kind == "elided":
            self.judge_elided(o)
            return
        if kind == "holds":
            self.n_claims += 1
            self.n_numbers += o.n
            return
        if kind == "layout":
            self.n_claims += 1
            h = plan["hit"]
            label = o.ref.show()
            how = {"T": "transposed", "row": "a row of another head or token", "col": "a column"}.get(
                h.how, "the values of " + _show_view(h))
            kind2 = "transposed" if h.how == "T" else ("wrong_head" if h.view.h is not None and o.ref.head is not None
                                                        and h.view.h != o.ref.head else "wrong_value")
            self.add(Finding(a.line, a.place.cell, f"{label}", f"{list(o.val.shape)} {_short(o)}",
                             f"{list(h.view.M.shape)}", None, self.step_of(h.view.node),
                             f"{how}: these are the values of {_show_view(h)}", kind2))
            return
        if kind == "shape":
            self.n_claims += 1
            views = plan["views"]
            want = sorted({tuple(v.M.shape) for v in views})
            label = o.ref.show()
            node = views[0].node
            if o.val is not None and o.val.size == 1:
                self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "a single number labelled "
                                                   f"{label}"))
                return
            self.add(Finding(a.line, a.place.cell, f"shape of {label}", f"{list(o.val.shape)}",
                             " or ".join(str(list(s)) for s in want[:3]), None, self.step_of(node),
                             f"wrong shape: {label} is {' or '.join(str(list(s)) for s in want[:3])}",
                             "wrong_shape"))
            return
        if kind == "unknown":
            hit = plan["hit"]
            nearest = distance = None
            if hit is not None and hit.view is not None:
                nearest = _show_view(hit)
                with np.errstate(invalid="ignore"):
                    d = np.abs(np.where(np.isfinite(hit.exact) & np.isfinite(o.val), hit.exact - o.val, np.inf))
                distance = float(d.max()) if np.isfinite(d).any() else None
            reason = ("labelled " + o.ref.show() + " but matches nothing of that name" if o.ref is not None
                      else "no label, and it matches no intermediate")
            if o.ref is not None and o.ref.strong and o.n >= 2 and hit is not None:
                # a labelled array that matches nothing is a finding
                self.n_claims += 1
                self.add(Finding(a.line, a.place.cell, f"{o.ref.show()}", _short(o), None, None,
                                 self.step_of(o.ref.nodes[0]),
                                 f"matches no {o.ref.show()} of the inferred configuration"
                                 + (f"; nearest {nearest}" if nearest else ""), "wrong_value"))
                return
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), reason, nearest, distance))
            return
        # kind == "wrong": some cells disagree
        hit: Hit = plan["hit"]
        self.n_claims += 1
        self.n_numbers += o.n
        whole = self.whole_cause(o, hit, plan.get("alt"))
        bad = np.argwhere(~hit.ok)
        label = o.ref.show() if o.ref is not None else _show_view(hit)
        for i, j in bad:
            num = o.a.rows[i][j] if o.slices == 1 else _nth(o, i, j)
            if num is None:
                continue
            exact = float(hit.exact[i, j])
            vi, vj = _view_index(hit, i, j)
            step = self.step_of(hit.view.node) if hit.view is not None else "input"
            note = self.rounded_predecessor(hit, vi, vj, num, a.place, a.context.approx)
            if not note and a.prev_expr is not None:
                vec = nb.face_vector(a.prev_expr)
                if vec is not None and len(vec) == o.n and o.val.shape[0] == 1 and num.contains(vec[j]):
                    note = (f"follows from the rounded terms printed before it (they give {vec[j]:.6g}); the exact "
                            f"{exact:.6g} rounds to {num.rounded(exact)}")
            if not note:
                note = _double_rounding(num, exact)
            if note:
                self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                                 exact, num.rounded(exact), step, note, "rounded_sum", "note"))
                continue
            cause, kind2 = whole if whole else self.cell_cause(hit, vi, vj, num, o)
            self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                             exact, num.rounded(exact), step, cause, kind2))

    def judge_elided(self, o: Obj) -> None:
        """A matrix printed with ⋯ / ⋮: compare the printed corners."""
        a = o.a
        if self.vs is None:
            return
        rows = a.rows
        fam = _family(o.ref) if o.ref is not None else None
        best = None
        for v in self.vs.views:
            if fam is not None and v.node not in fam:
                continue
            R, C = v.M.shape
            pos = _elided_positions(rows, R, C)
            if pos is None:
                continue
            ok = total = 0
            bad = []
            for (pi, pj, i, j) in pos:
                num = rows[pi][pj]
                total += 1
                band = v.band[i, j] if isinstance(v.band, np.ndarray) else v.band
                if num.contains(float(v.M[i, j]), band):
                    ok += 1
                else:
                    bad.append((pi, pj, i, j))
            if total and (best is None or ok > best[0]):
                best = (ok, total, v, bad)
        if best is None or best[0] < 0.6 * best[1]:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "elided matrix that matches nothing"))
            return
        ok, total, v, bad = best
        self.n_claims += 1
        self.n_numbers += total
        for pi, pj, i, j in bad:
            num = rows[pi][pj]
            exact = float(v.M[i, j])
            label = o.ref.show() if o.ref else lb.SHOWN.get(v.node, v.node)
            self.add(Finding(num.line or a.row_line(pi), a.place.cell, f"{label}[{i + 1},{j + 1}]", num.text, exact,
                             num.rounded(exact), self.step_of(v.node), None, _simple_kind(num, exact)))

    def whole_cause(self, o: Obj, hit: Hit, alt: Hit | None) -> tuple[str, str] | None:
        """A cause that explains the whole object: another head, the transpose, the scale left out, swapped rows."""
        n_bad = int((~hit.ok).sum())
        if n_bad < 2:
            return None
        if alt is not None and alt.view is not None:
            v, w = hit.view, alt.view
            if w.node == v.node and w.h != v.h and w.h is not None:
                return (f"wrong head: these are head {w.h + 1}'s values", "wrong_head")
            if w.node == v.node and alt.how == "T":
                return ("transposed: this is the transpose", "transposed")
            return (f"these are the values of {_show_view(alt)}", "wrong_value")
        # scale left out
        av = self.alt("scale")
        if av is not None and hit.view is not None and hit.view.node in ("S", "A", "O", "O_concat", "Y", "E",
                                                                         "row_sum"):
            for w in av.get(hit.view.node, hit.view.b, hit.view.h, variant=hit.view.variant):
                M = _layout(hit, w.M)
                if M is not None and within(o.lo, o.hi, M, 0.0, 1.0).all():
                    said = "without" if self.mapping.get("scale") in (None, "1/sqrt(d_k)", "1/d_k") else "with"
                    return (f"missing scale: computed {said} dividing by √d_k", "missing_scale")
        # rows swapped
        if hit.how == "full" and o.val.shape[0] > 1:
            M = hit.exact
            perm_ok = True
            for i in range(o.val.shape[0]):
                if hit.ok[i].all():
                    continue
                if not any(within(o.lo[i:i + 1], o.hi[i:i + 1], M[k:k + 1], 0.0).all() for k in range(M.shape[0])
                           if k != i):
                    perm_ok = False
                    break
            if perm_ok:
                return ("rows swapped", "transposed")
        return None

    def cell_cause(self, hit: Hit, i: int, j: int, num: Num, o: Obj) -> tuple[str | None, str]:
        v = hit.view
        M = v.M
        x = float(M[i, j]) if hit.how != "stack" else float(hit.exact.flat[0])
        if hit.how == "stack":
            return (None, _simple_kind(num, x))
        if x != 0 and num.contains(-x):
            return ("dropped sign", "dropped_sign")
        k = _simple_kind(num, x)
        if k == "swapped_digits":
            return (f"swapped digits: the value rounds to {num.rounded(x)}", "swapped_digits")
        if M.shape[0] == M.shape[1] and i != j and num.contains(float(M[j, i])):
            return (f"transposed indices: this is entry [{j + 1},{i + 1}]", "transposed")
        for w in self.vs.get(v.node, v.b, None, variant=v.variant):
            if w.h is not None and w.h != v.h and w.M.shape == M.shape and num.contains(float(w.M[i, j])):
                return (f"wrong head: this is head {w.h + 1}'s value", "wrong_head")
        av = self.alt("scale")
        if av is not None and v.node in ("S", "A", "O", "O_concat", "Y"):
            for w in av.get(v.node, v.b, v.h, variant=v.variant):
                if w.M.shape == M.shape and num.contains(float(w.M[i, j])):
                    return ("missing scale: this is the value without dividing by √d_k", "missing_scale")
        for (a, b) in ((i, j - 1), (i, j + 1), (i - 1, j), (i + 1, j)):
            if 0 <= a < M.shape[0] and 0 <= b < M.shape[1] and num.contains(float(M[a, b])):
                return (f"neighbour's value: this is entry [{a + 1},{b + 1}]", "neighbour_value")
        for b2 in range(M.shape[1]):
            if b2 != j and num.contains(float(M[i, b2])):
                return (f"another entry's value: this is entry [{i + 1},{b2 + 1}]", "neighbour_value")
        return (None, k)

    def rounded_predecessor(self, hit: Hit, i: int, j: int, num: Num, place: Place | None = None,
                            approx: bool = False) -> str | None:
        if hit.view is None or hit.how == "stack":
            return None
        exact = float(hit.view.M[i, j])
        declared = approx and math.isfinite(exact) and num.decimals is not None and \
            abs(num.value - exact) <= 2 * num.half + 1e-12
        alt = self.from_printed(hit.view, _order(place) if place is not None else None)
        if alt is None or not (0 <= i < alt.shape[0] and 0 <= j < alt.shape[1]) or math.isnan(float(alt[i, j])) \
                or not num.contains(float(alt[i, j])):
            return f"within the approximation the document declares (exact {exact:.6g})" if declared else None
        x = float(alt[i, j])
        exact = float(hit.view.M[i, j])
        pre = {"O": "A and V", "A": "scores", "S": "Q Kᵀ", "QKt": "Q and K", "O_concat": "head outputs",
               "Y": "O_concat", "row_sum": "exponentials", "E": "scores"}.get(hit.view.node, "values")
        return (f"follows from the rounded {pre} printed before it (they give {x:.6g}); "
                f"the exact {exact:.6g} rounds to {num.rounded(exact)}")

    # ---------------------------------------------------------- arithmetic lines
    def judge_arith(self, c: Chain) -> None:
        if c.context.partial:
            return
        self._judge_arith(c)

    def judge_vector_arith(self, c: Chain, k: int, plans: dict[int, Any]) -> None:
        if c.context.partial:
            return
        left, right = c.parts[k], c.parts[k + 1]
        result = right.array
        cells = result.rows[0]
        if isinstance(left, ExprPart):
            face = nb.face_vector(left.expr)
            terms = nb.leaves(left.expr)
        else:
            if any(n is None for n in left.array.rows[0]):
                return
            face = [n.value for n in left.array.rows[0]]
            terms = left.array.numbers
        if face is None or len(face) != len(cells) or any(x is None for x in cells):
            return
        self.n_claims += 1
        obj = next((o for o in self.objs if o.a is result), None)
        plan = plans.get(result.id) if obj is not None else None
        step = None
        if plan and plan["kind"] == "holds" and plan.get("hit") is not None and plan["hit"].view is not None:
            step = self.step_of(plan["hit"].view.node)
        if step is None and isinstance(left, ExprPart) and any(isinstance(f, nb.Vec) for t in nb.terms_of(left.expr)
                                                               for f in nb.factors_of(t)):
            step = "weighted_sum"            # Σ_j a_j v_j
        if step is None and plan and plan.get("hit") is not None and plan["hit"].view is not None:
            step = self.step_of(plan["hit"].view.node)
        step = step or c.context.step or "weighted_sum"
        finest = max((t.decimals or 0) for t in terms) if terms else 0
        for j, (f, n) in enumerate(zip(face, cells)):
            self.n_numbers += 1
            slack = n.half * (1 + 1e-9) + 1e-12
            if (n.decimals or 0) <= finest:
                slack += len(terms) * 0.5 * 10.0 ** -finest / max(1, len(cells))   # the terms' own rounding
            if abs(f - n.value) <= slack:
                continue
            name = f"{obj.ref.show()}[{j + 1}]" if obj is not None and obj.ref is not None and obj.ref.strong \
                else f"{_chain_text(c)} [{j + 1}]"
            self.add(Finding(n.line or c.place.line, c.place.cell, name, n.text, f,
                             n.rounded(f), step, f"arithmetic slip: the terms give {n.rounded(f)}",
                             _simple_kind(n, f) if _simple_kind(n, f) != "wrong_value" else "arithmetic"), merge=True)

    def judge_weighted(self, c: Chain, e) -> bool:
        """o_i = Σ_j a_ij v_j, written with vectors (0.4011[1, 0] + ...) or symbols (0.4011 v_1 + ...)."""
        terms = nb.terms_of(e)
        pairs = []
        for t in terms:
            fs = nb.factors_of(t)
            w = next((nb.plain_number(f) for f in fs if nb.plain_number(f) is not None), None)
            vec = next((f for f in fs if isinstance(f, nb.Vec)), None)
            sym = next((f for f in fs if isinstance(f, nb.Sym)), None)
            if w is None or (vec is None and sym is None) or len(fs) != 2:
                return False
            j = None
            if sym is not None:
                r = self.inf.bases.label(sym.text)
                if r is None or r.row is None or not ({"V", "Vh"} & set(r.nodes)):
                    return False
                j = r.row
            pairs.append((w, vec, j))
        if len(pairs) < 2 or self.t is None:
            return False
        ref = next((self.inf.bases.label(p.text) for p in c.parts if isinstance(p, LabelPart)
                    and self.inf.bases.label(p.text) is not None), None)
        t = self.t
        cands = []
        for h in range(t.config.n_heads):
            hd = t.head(h)
            A, V = hd["A"], hd["V"]
            if A.shape[1] < len(pairs):
                continue
            for i in range(A.shape[0]):
                if ref is not None and ref.row is not None and ref.row != i:
                    continue
                if ref is not None and ref.head is not None and ref.head != h:
                    continue
                score = 0
                for k, (w, vec, j) in enumerate(pairs):
                    jj = k if j is None else j
                    if jj >= A.shape[1]:
                        break
                    score += w.contains(float(A[i, jj]))
                    if vec is not None and len(vec.cells) == V.shape[1]:
                        score += all(x.contains(float(y)) for x, y in zip(vec.cells, V[jj]))
                cands.append((score, h, i))
        if not cands:
            return False
        score, h, i = max(cands)
        n_items = len(pairs) + sum(v is not None for _, v, _ in pairs)
        if ref is None and score < max(2, n_items - 1):
            return False
        self.n_claims += 1
        hd = t.head(h)
        A, V = hd["A"], hd["V"]
        av = self.vs.get("A", 0, h)[0]
        vv = self.vs.get("Vh", 0, h)[0]
        for k, (w, vec, j) in enumerate(pairs):
            jj = k if j is None else j
            if jj >= A.shape[1]:
                continue
            self.n_numbers += 1
            x = float(A[i, jj])
            if not w.contains(x, _band(av, i, jj)):
                cause, kind = self.cell_cause(Hit(self.vs.get("A", 0, h)[0], "full", None, np.zeros((1, 1), bool),
                                                  A), i, jj, w, None)
                self.add(Finding(w.line or c.place.line, c.place.cell, f"A^({h + 1})[{i + 1},{jj + 1}] in {c.text[:60]}",
                                 w.text, x, w.rounded(x), "weighted_sum", cause, kind))
            if vec is not None and len(vec.cells) == V.shape[1]:
                for d, (cell, y) in enumerate(zip(vec.cells, V[jj])):
                    self.n_numbers += 1
                    if not cell.contains(float(y), _band(vv, jj, d) if vv.M.shape == V.shape else 0.0):
                        self.add(Finding(cell.line or c.place.line, c.place.cell,
                                         f"v^({h + 1})_{jj + 1}[{d + 1}] in {c.text[:60]}", cell.text, float(y),
                                         cell.rounded(float(y)), "weighted_sum", _simple_cause(cell, float(y)),
                                         _simple_kind(cell, float(y))))
        return True

    def _judge_arith(self, c: Chain) -> None:
        """An equation chain: each printed value against the expression before it, then against the trace.

        A careful reader takes the printed terms at face value: "1.5/√2 ≈ 1.0607" is checked with 1.5 as
        written.  One unit of the last digit is allowed when the terms are themselves rounded at the
        result's precision (three rounded terms add up to ±1.5 units) and the line names no quantity
        whose exact value decides.
        """
        nums = [(k, p) for k, p in enumerate(c.parts) if isinstance(p, ExprPart)]
        if not nums:
            return
        for k, p in nums:
            if nb.has_symbols(p.expr) and self.judge_weighted(c, p.expr):
                break
        values = []
        for k, p in nums:
            face = None
            if not nb.has_symbols(p.expr):
                try:
                    face = nb.face(p.expr)
                except (ArithmeticError, OverflowError, ValueError):
                    face = None
            values.append((k, p, face))
        target = self.arith_target(c, values)
        exacts = target[2] if target else []
        identified = bool(exacts) and target[3]
        step = target[1] if target else (_arith_step(values) or c.context.step or "scores")
        self.n_claims += 1
        last = len(values) - 1
        for idx, ((k1, p1, f1), (k2, p2, f2)) in enumerate(zip(values, values[1:])):
            if k2 != k1 + 1:
                continue
            bad = self.compare_parts(p1.expr, p2.expr, idx + 1 == last and identified, exacts)
            if bad is None:
                continue
            self.n_numbers += 1
            if bad is True:
                continue
            n2, got = bad
            self.add(Finding(n2.line or c.place.line, c.place.cell, _chain_text(c), n2.text, got,
                             n2.rounded(got), step,
                             f"arithmetic slip: {p1.text[:60]} gives {n2.rounded(got)}"
                             + (f" (exact {min(exacts, key=lambda x: abs(x - got)):.6g})" if exacts else ""),
                             _simple_kind(n2, got) if _simple_kind(n2, got) != "wrong_value" else "arithmetic"))
            return
        # the printed result against the trace
        if not exacts:
            return
        final = next(((k, p, nb.plain_number(p.expr)) for k, p, _ in reversed(values)
                      if nb.plain_number(p.expr) is not None), None)
        if final is None:
            return
        k, p, n = final
        self.n_numbers += 1
        if any(_ok(n, x) for x in exacts):
            return
        slips = [x for x in exacts if _simple_kind(n, float(x)) != "wrong_value"]
        exact = float(slips[0]) if slips and not target[3] else float(min(exacts, key=lambda x: abs(x - n.value)))
        if not target[3] and not (_simple_kind(n, exact) != "wrong_value" or
                                  abs(exact - n.value) <= 0.05 * max(abs(exact), 1e-9)):
            self.n_claims -= 1
            return
        if not target[3] and abs(exact - n.value) <= 2 * n.half + 1e-12:
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, "one unit in the last digit: rounding of the values it comes from",
                             "rounded_sum", "note"))
            return
        before = [f for kk, _, f in values if kk < k and f is not None]
        if not before and len(values) == 1:
            same_line = [x for x in self.doc.chains if x is not c and x.place.line == c.place.line
                         and x.place.cell == c.place.cell and any(isinstance(p, ExprPart) and "exp" in _ops(p.expr)
                                                                  for p in x.parts)]
            terms = [nb.plain_number(p.expr) for x in same_line for p in x.parts[-1:] if isinstance(p, ExprPart)]
            terms = [t for t in terms if t is not None]
            if len(terms) >= 2 and abs(sum(t.value for t in terms) - n.value) <= n.half + 1e-9:
                before = [sum(t.value for t in terms)]
        if before and n.contains(before[-1]):
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step,
                             f"sum of rounded terms: the printed terms give {n.text}, the exact terms "
                             f"{n.rounded(exact)}", "rounded_sum", "note"))
            return
        if c.context.approx and abs(n.value - exact) <= 2 * n.half + 1e-12:
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, "within the approximation the document declares",
                             "rounded_sum", "note"))
            return
        self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                         n.rounded(exact), step, _simple_cause(n, exact), _simple_kind(n, exact)))

    def compare_parts(self, left, right, final: bool, exacts: list[float]):
        """None: nothing to compare; True: they agree; (printed number, value it should be): they do not."""
        n = nb.plain_number(right)
        if n is None:
            # \frac{a}{b + c} = \frac{a}{d}: compare the parts that differ
            if isinstance(left, nb.Op) and isinstance(right, nb.Op) and left.op == right.op and \
                    len(left.args) == len(right.args) and left.op in ("/", "*"):
                for x, y in zip(left.args, right.args):
                    got = self.compare_parts(x, y, False, [])
                    if got not in (None, True):
                        return got
                return True
            # (0.22)(0.54) + (0.64)(0.36) = 0.1188 + 0.2304: term by term
            lt, rt = nb.terms_of(left), nb.terms_of(right)
            if len(lt) == len(rt) >= 2 and all(nb.plain_number(y) is not None for y in rt) and \
                    not nb.has_symbols(left):
                seen = False
                for x, y in zip(lt, rt):
                    got = self.compare_parts(x, y, False, [])
                    if got not in (None, True):
                        return got
                    seen = seen or got is True
                return True if seen else None
            return None
        if nb.has_symbols(left):
            return None
        try:
            face = nb.face(left)
        except (ArithmeticError, OverflowError, ValueError):
            return None
        if abs(face - n.value) <= n.half * (1 + 1e-9) + 1e-12 * max(1.0, abs(face)):
            return True
        # terms printed at the result's precision (or finer) carry their own rounding: e^{1.4142} ≈ 4.1133
        try:
            iv = nb.evaluate(nb.exact_below(left, n.decimals if n.decimals is not None else 0))
        except (ArithmeticError, OverflowError, ValueError):
            return (n, face)
        if iv.lo - 1e-12 <= n.hi and n.lo <= iv.hi + 1e-12:
            if final and exacts:
                return True if any(_ok(n, x) for x in exacts) else (n, face)
            if _ops(left) & {"exp", "sqrt", "pow", "cos", "sin", "tan", "log", "ln"}:
                return True          # e^{1.4142} ≈ 4.1133: the exponent itself was rounded
            return (n, face)
        if self.from_intermediate(left, n):
            return True              # e^{0.87} ≈ 2.377: 0.87 is the printed rounding of the score 0.866
        return (n, face)

    def from_intermediate(self, left, n: Num) -> bool:
        """e^{0.87} ≈ 2.377: a term printed coarser than the result stands for the exact intermediate it was
        rounded from (the score 0.866), and the result is computed from that intermediate.

        Only for the monotone functions a person evaluates on a calculator (exp, √, ÷, log, powers), only for
        a term that rounds to an exact value of the trace, and the result must round to the function of that
        value: a value outside every such reading is still a slip.
        """
        if self.vs is None or n.decimals is None or not (_ops(left) & {"exp", "sqrt", "/", "pow", "log", "ln"}):
            return False
        coarse = [x for x in nb.leaves(left) if x.decimals is not None and x.decimals < n.decimals
                  and not x.exact and math.isfinite(x.value)]
        if not 1 <= len(coarse) <= 2:
            return False
        pool = self.trace_values()
        cands = []
        for leaf in coarse:
            near = sorted({x for x in pool if leaf.contains(x) and abs(x - leaf.value) > 1e-12},
                          key=lambda x: abs(x - leaf.value))[:6]
            if not near:
                return False
            cands.append(near)
        for combo in itertools.product(*cands):
            sub = dict(zip((id(x) for x in coarse), combo))
            try:
                got = nb.face(_substitute(left, sub))
            except (ArithmeticError, OverflowError, ValueError):
                continue
            if n.contains(got):
                return True
        return False

    def trace_values(self) -> list[float]:
        """Every finite exact value of the configuration's intermediates (memoized)."""
        if self._trace_values is None:
            vals = set()
            for v in self.vs.views:
                M = np.asarray(v.M, dtype=float)
                vals.update(float(x) for x in M[np.isfinite(M)].reshape(-1))
            self._trace_values = sorted(vals)
        return self._trace_values

    def arith_target(self, c: Chain, values) -> tuple[str, str, list[float], bool] | None:
        """Which trace entry an arithmetic line computes: from its label, or from the shape of its terms."""
        if self.vs is None:
            return None
        for p in c.parts:
            if isinstance(p, LabelPart):
                ref = self.inf.bases.label(p.text)
                if ref is None:
                    continue
                e = self.entry(ref, c)
                if e is not None:
                    return e
        for k, p, v in values:
            got = self.dot_product(p.expr, c)
            if got is not None:
                return got
        step = _arith_step(values) or c.context.step
        # a sum of exponentials or a dot product: the entry whose value it lands on
        face = next((f for _, p, f in values if f is not None and nb.plain_number(p.expr) is None), None)
        if face is not None and math.isfinite(face) and abs(face) > 1e-6:
            near = []
            for v in self.vs.views:
                if v.node in ("row_sum", "QKt", "S", "O", "Y", "O_concat") and (v.b or 0) == 0:
                    d = np.abs(v.M - face)
                    if np.isfinite(d).any() and np.nanmin(d) <= max(2e-4 * abs(face), 2e-4):
                        near.append((float(np.nanmin(d)), v))
            if near:
                rank = {"row_sum": 0, "QKt": 1, "S": 2, "O": 3, "O_concat": 4, "Y": 5}
                d, v = min(near, key=lambda x: (round(x[0], 12), rank.get(x[1].node, 9)))
                k = int(np.nanargmin(np.abs(v.M - face)))
                x = float(v.M.reshape(-1)[k])
                band = float(np.asarray(v.band).reshape(-1)[k]) if isinstance(v.band, np.ndarray) else float(v.band)
                return (lb.SHOWN.get(v.node, v.node), self.step_of(v.node), [_E(x, band)], True)
        if step:
            return (c.text[:40], step, [], True)
        return None

    def entry(self, ref: lb.Ref, c: Chain) -> tuple[str, str, list[float], bool] | None:
        """A scalar label: α_{21}, q_1·k_2, m_1, Σ... as (name, step, the exact values it may stand for)."""
        node = ref.nodes[0]
        fam = _family(ref)
        head = ref.head if ref.head is not None else _ctx_head(c.context)
        if ref.row is not None and ref.col is not None:
            vals, step = [], None
            ordered = sorted(self.vs.views, key=lambda v: (ref.nodes.index(v.node) if v.node in ref.nodes else 9,
                                                           v.node == "O_concat" and self.t.config.n_heads == 1))
            for v in ordered:
                if v.node in fam and (head is None or v.h is None or v.h == head) and (v.b or 0) == 0:
                    if ref.row < v.M.shape[0] and ref.col < v.M.shape[1]:
                        vals.append(_E(v.M[ref.row, ref.col], _band(v, ref.row, ref.col)))
                        step = step or self.step_of(v.node)
            if vals:
                return (ref.show(), step, vals, True)
        if node in ("row_max", "row_sum") and (ref.row is not None or c.context.row is not None):
            r = ref.row if ref.row is not None else c.context.row - 1 - self.inf.bases.query
            vals = []
            for v in self.vs.views:
                if v.node == node and (head is None or v.h == head) and (v.b or 0) == 0 and 0 <= r < v.M.shape[1]:
                    vals.append(_E(v.M[0, r], _band(v, 0, r)))
            if vals:
                return (ref.show(), "softmax", vals, True)
        if ref.row is None and ref.col is None and node in ("row_sum", "row_max", "QKt", "S", "A", "E"):
            # a single number named only by a word ("sum 22.03", "the score is 0.27"): any entry of that name;
            # a finding only when it is near one of them (see judge_arith)
            vals = [_E(x, float(np.max(v.band)) if isinstance(v.band, np.ndarray) else float(v.band))
                    for v in self.vs.views if v.node in fam
                    and (head is None or v.h is None or v.h == head) for x in v.M.reshape(-1) if np.isfinite(x)]
            if vals:
                return (ref.show(), self.step_of(node), vals, False)
        return None

    def dot_product(self, e, c: Chain) -> tuple[str, str, float | None, bool] | None:
        """Σ a_k b_k: the entry of Q Kᵀ, A V, X W or O_concat W_O whose factors it multiplies."""
        terms = nb.terms_of(e)
        if len(terms) < 2 or len(terms) > 64:
            return None
        pairs = []
        for t in terms:
            fs = nb.factors_of(t)
            vals = []
            for f in fs:
                try:
                    vals.append(nb.evaluate(f))
                except (ArithmeticError, OverflowError, ValueError):
                    return None
            pairs.append(vals)
        n = len(pairs)
        t, cfg = self.t, self.t.config
        fams = []
        for b in range(cfg.B):
            for h in range(cfg.n_heads):
                hd = t.head(h, b)
                fams.append(("QKt", b, h, hd["Q"], hd["K"].T, "scores"))
                fams.append(("O", b, h, hd["A"], hd["V"], "weighted_sum"))
            if cfg.X is not None:
                for name, W in (("Q", cfg.W_Q), ("K", cfg.W_K), ("V", cfg.W_V)):
                    if cfg.key is None:
                        fams.append((name, b, None, cfg.X[b], W, "projection"))
            if cfg.W_O is not None:
                fams.append(("Y", b, None, t.O_concat[b], cfg.W_O, "output"))
        best = None
        for node, b, h, L, R, step in fams:
            if L.shape[1] != n:
                continue
            for i in range(L.shape[0]):
                for j in range(R.shape[1]):
                    score = 0
                    for k, fs in enumerate(pairs):
                        a, bb = float(L[i, k]), float(R[k, j])
                        if len(fs) == 2:
                            # identification only: one unit of slack (printed inputs may be rounded)
                            def near(f, x):
                                return abs(f.value - x) <= 2 * f.half + 1e-9
                            if (near(fs[0], a) and near(fs[1], bb)) or (near(fs[1], a) and near(fs[0], bb)):
                                score += 1
                        elif len(fs) == 1:
                            p = a * bb
                            if fs[0].lo - 1e-6 <= p <= fs[0].hi + 1e-6 or abs(fs[0].value - p) <= max(fs[0].half * 2, 1e-9):
                                score += 1
                    if score >= max(2, n - 1) and (best is None or score > best[0]):
                        best = (score, node, b, h, i, j, step, float(L[i] @ R[:, j]))
        if best is None:
            return None
        score, node, b, h, i, j, step, exact = best
        name = f"{lb.SHOWN.get(node, node)}" + (f"^({h + 1})" if h is not None else "") + f"[{i + 1},{j + 1}]"
        step = self.step_of(node)
        band = 0.0
        for v in self.vs.get(node, b, h):
            if 0 <= i < v.M.shape[0] and 0 <= j < v.M.shape[1]:
                exact, band = float(v.M[i, j]), _band(v, i, j)
                break
        return (name, step, [_E(exact, band)], True)

    # ---------------------------------------------------------- shapes and sizes
    def shape_of(self, ref: lb.Ref) -> tuple[list[list[int]], str] | None:
        c = self.t.config
        node = ref.nodes[0]
        shapes: list[list[int]] = []
        for n in _family(ref):
            for v in self.vs.by_node.get(n, []):
                if ref.head is not None and v.h is not None and v.h != ref.head:
                    continue
                if n in ("row_max", "row_sum", "b_Q", "b_K", "b_V", "b_O"):
                    continue
                s = list(v.M.shape)
                if ref.transposed:
                    s = s[::-1]
                if c.batched and v.b is not None and n in ("X", "Q", "K", "V", "O_concat", "Y"):
                    shapes.append([c.B] + s)
                if c.batched and v.b is not None and n in lb.PER_HEAD | {"Qh", "Kh", "Vh"}:
                    shapes.append([c.B, c.n_heads] + s)
                    shapes.append([c.B] + s)
                if n in lb.PER_HEAD | {"Qh", "Kh", "Vh"}:
                    shapes.append([c.n_heads] + s)
                shapes.append(s)
        if not shapes:
            return None
        best = self.inf.best
        for n in ref.nodes:
            ch = best.cand.dims.get(n) if best is not None and n in ("W_Q", "W_K", "W_V") else None
            if ch is not None and "(transposed)" in ch.label:
                # read in the column convention (q = W_Q x): the document's W_Q is d_k×d_model as it says
                shapes += [x[::-1] for x in shapes if len(x) == 2]
        step = self.step_of(node)
        B = getattr(self, "stated_B", None)
        if B and B > 1 and c.B == 1:
            shapes += [[B] + x for x in shapes]
        return shapes, step

    def judge_shape(self, s: ShapeClaim) -> None:
        if self.vs is None:
            return
        got = self.shape_of(s.ref)
        if got is None:
            return
        shapes, step = got
        if s.ref.row is not None:
            return
        self.n_claims += 1
        self.n_numbers += 1
        if s.dims in shapes:
            return
        c = self.t.config
        dims = list(s.dims)
        while len(dims) > 2 and dims[0] == 1 and (not c.batched or c.B == 1):
            dims = dims[1:]               # a batch of one: torch.Size([1, 3, 4]) is X's 3×4, (1, H, T, d_k) the split Q
            if dims in shapes:
                return
        want = shapes[-1] if len(s.dims) == len(shapes[-1]) else next((x for x in shapes if len(x) == len(s.dims)),
                                                                      shapes[-1])
        if step in ("projection",) and s.ref.head is not None:
            step = "split"
        self.add(Finding(s.place.line, s.place.cell, f"shape of {s.ref.show()}", "×".join(map(str, s.dims)),
                         "×".join(map(str, want)), None, step, f"wrong shape: {s.ref.show()} is "
                         f"{'×'.join(map(str, want))}", "wrong_shape"))

    def judge_product(self, p: ProductShapeClaim) -> None:
        sp = p.part
        self.n_claims += 1
        self.n_numbers += 1
        a, b = sp.left, sp.right
        step = p.step_hint or "scores"
        ref = lb.parse_label(p.label) if p.label else None
        if ref is not None and ref.nodes[0] in STEP:
            step = self.step_of(ref.nodes[0])
        known: list[tuple[str, list[int], list[int]]] = []
        if self.t is not None:
            c = self.t.config
            known = [("scores", [c.T, c.d_k], [c.d_k, c.S]), ("weighted_sum", [c.T, c.S], [c.S, c.d_v]),
                     ("output", [c.T, c.n_heads * c.d_v], [c.n_heads * c.d_v, c.d_out])]
            if c.d_model is not None:
                known.append(("projection", [c.T, c.d_model], [c.d_model, c.n_heads * c.d_k]))
                known.append(("projection", [c.T, c.d_model], [c.d_model, c.d_k]))
            if c.B > 1 or getattr(self, "stated_B", None):
                B = c.B if c.B > 1 else self.stated_B
                known += [(st, [B] + x, [B] + y) for st, x, y in known]
                known += [(st, [B, c.n_heads] + x, [B, c.n_heads] + y) for st, x, y in known if len(x) == 2]
        match = [st for st, x, y in known if (x, y) == (a, b)]
        if match:
            step = match[0]
        elif ref is None and p.step_hint is None:
            near = [st for st, x, y in known if x == a or y == b]
            step = near[0] if near else step
        if len(a) >= 2 and len(b) >= 2 and a[-1] != b[-2]:
            self.add(Finding(p.place.line, p.place.cell, sp.text, f"{a} × {b}", None, None, step,
                             "wrong shape: the inner sizes differ", "wrong_shape"))
            return
        want_result = a[:-1] + b[-1:] if len(a) >= 2 and len(b) >= 2 else None
        if sp.result is not None and want_result is not None and sp.result != want_result:
            self.add(Finding(p.place.line, p.place.cell, sp.text, str(sp.result), str(want_result), None, step,
                             f"wrong shape: {a} × {b} gives {want_result}", "wrong_shape"))
            return
        if match or not known or ref is None:
            return
        want = next(((x, y) for st, x, y in known if st == step and len(x) == len(a)), None)
        if want is not None and (a, b) != want:
            self.add(Finding(p.place.line, p.place.cell, sp.text, f"{a} × {b}", f"{want[0]} × {want[1]}", None,
                             step, "wrong shape", "wrong_shape"))

    def judge_size(self, s: SizeClaim) -> None:
        if self.t is None:
            return
        c = self.t.config
        sizes = {"B": c.B, "T": c.T, "S": c.S, "d_model": c.d_model, "H": c.n_heads, "d_k": c.d_k,
                 "d_v": c.d_v, "G": c.G}
        want = sizes.get(s.symbol)
        if want is None:
            return
        if s.symbol == "B" and c.B == 1 and s.value.value > 1:
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text,
                                               "the document shows one sequence of its batch"))
            return
        self.n_claims += 1
        self.n_numbers += 1
        if not s.value.contains(float(want)):
            self.add(Finding(s.place.line, s.place.cell, s.text, s.value.text, float(want), str(want), "config",
                             f"wrong size: {s.symbol} is {want}", "wrong_value"))

    # ---------------------------------------------------------- prose readings
    def judge_reading(self, r: Reading) -> None:
        if self.vs is None or r.row is None or r.col is None:
            return
        words = r.words.lower()
        fam = {"A"} if re.search(r"weight|权重", words) else {"QKt", "S"}
        i, j = r.row - 1, r.col - 1
        head = r.context.head - 1 if r.context.head is not None else None
        cands = [v for v in self.vs.views if v.node in fam and not v.variant and v.h is not None
                 and (head is None or v.h == head) and i < v.M.shape[0] and j < v.M.shape[1]
                 and (v.b or 0) == 0]
        if not cands:
            return
        self.n_claims += 1
        self.n_numbers += 1
        if any(r.value.contains(float(v.M[i, j]), _band(v, i, j)) for v in cands):
            return
        if head is None:
            self.not_checked.append(NotChecked(r.place.line, r.place.cell, r.text, "which head is not said"))
            self.n_claims -= 1
            return
        v = cands[0]
        x = float(v.M[i, j])
        hit = Hit(v, "full", None, np.zeros((1, 1), bool), v.M)
        note = self.rounded_predecessor(hit, i, j, r.value)
        if note:
            self.add(Finding(r.place.line, r.place.cell, f"{lb.SHOWN[v.node]}^({v.h + 1})[{i + 1},{j + 1}]",
                             r.value.text, x, r.value.rounded(x), self.step_of(v.node), note, "rounded_sum", "note"))
            return
        cause, kind = self.cell_cause(hit, i, j, r.value, None)
        self.add(Finding(r.place.line, r.place.cell, f"{lb.SHOWN[v.node]}^({v.h + 1})[{i + 1},{j + 1}] ({r.text})",
                         r.value.text, x, r.value.rounded(x), self.step_of(v.node), cause, kind))

    def judge_repairs(self) -> None:
        """A printed input with a slip: the rest of the document follows from the value before the slip."""
        by_id = {o.a.id: o for o in self.objs}
        for oid, i, j, value, how in getattr(self.inf, "repairs", []) or []:
            o = by_id.get(oid)
            if o is None:
                continue
            num = o.a.rows[i][j]
            node = next((r.nodes[0] for r in o.refs if r.nodes[0] in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V")),
                        "X")
            step = self.step_of(node) if node not in ("Q", "K", "V") else "input"
            name = lb.SHOWN.get(node, node)
            self.n_claims += 1
            self.add(Finding(num.line or o.a.row_line(i), o.a.place.cell, f"{name}[{i + 1},{j + 1}]", num.text,
                             float(value), num.rounded(value), step,
                             f"{how}: every later number of the document follows from {num.rounded(value)}",
                             how.replace(" ", "_").replace("swapped_digits", "swapped_digits")))

    def step_of(self, node: str) -> str:
        """The step of a quantity, as the document's configuration makes it.

        Q^(h), K^(h), V^(h) are the split, unless each head has its own projection (or there is one head).
        With one head its output is the concatenation; without W_O the output is the concatenation.
        """
        if self.t is None:
            return STEP.get(node, "input")
        c = self.t.config
        if node in ("Q", "K", "V") and c.given_qkv:
            return "input"
        if node in ("Qh", "Kh", "Vh"):
            if c.given_qkv and c.n_heads == 1:
                return "input"
            if c.n_heads == 1 or (node[0] == "Q" and "W_Q" in c.weights_per_head) or \
                    (node[0] in "KV" and f"W_{node[0]}" in c.weights_per_head):
                return "projection"
        if node == "O_concat" or (node == "Y" and c.W_O is None):
            return "weighted_sum" if c.n_heads == 1 else "concat"
        return STEP.get(node, "input")

    # ---------------------------------------------------------- findings
    def add(self, f: Finding, merge: bool = False) -> None:
        """merge: f is the end of an arithmetic line; the same number already found as a matrix entry is one
        finding (with the arithmetic's cause)."""
        for g in self.findings:
            if (g.line, g.cell, g.claim, g.printed) == (f.line, f.cell, f.claim, f.printed):
                return
            if merge and (g.line, g.cell, g.printed, g.severity) == (f.line, f.cell, f.printed, f.severity) and \
                    isinstance(g.exact, float) and isinstance(f.exact, float) and \
                    abs(g.exact - f.exact) <= 1e-9 * max(1.0, abs(g.exact)):
                # one number found twice (as an entry of its matrix and as the end of its arithmetic line)
                if g.cause is None and f.cause is not None:
                    g.cause, g.kind = f.cause, f.kind
                return
        self.findings.append(f)


# ------------------------------------------------------------------ small helpers

class _E(float):
    """An exact value with the band the rounding of printed inputs allows around it."""
    def __new__(cls, x: float, band: float = 0.0):
        obj = super().__new__(cls, float(x))
        obj.band = float(band)
        return obj


def _double_rounding(num: Num, x: float) -> str | None:
    """0.373515 shown by pandas as .round(4) at display.precision 3: 0.3735, then 0.373, one unit below the
    0.374 of a single rounding.  The printed value is the rounding of a coarser rounding of the exact value
    (to one or two more decimals), so it is a note; any other value is still a slip."""
    if num.decimals is None or num.decimals < 1 or "e" in num.text.lower() or not math.isfinite(x) \
            or abs(num.value - x) > 2 * num.half + 1e-12:
        return None
    k = num.decimals
    for extra in (1, 2):
        m = round(x, k + extra)
        if num.contains(m):
            return (f"double rounding: the exact {x:.6g} rounded first to {k + extra} decimals ({m:.{k + extra}f}) "
                    f"gives {num.text}; rounded once it gives {num.rounded(x)}")
    return None


def _substitute(e, values: dict[int, float]):
    """The tree with the printed numbers whose id is in `values` replaced by those exact values."""
    if isinstance(e, nb.Lit) and id(e.num) in values:
        x = values[id(e.num)]
        return nb.Lit(Num(x, e.num.text, x, x, e.num.line, None))
    if isinstance(e, nb.Op):
        return nb.Op(e.op, tuple(_substitute(a, values) for a in e.args))
    return e


def _ok(n: Num, x: float) -> bool:
    return n.contains(float(x), getattr(x, "band", 0.0))


def _raw(r: lb.Ref) -> lb.Ref:
    """A resolved reference back to the indices as written (resolve() subtracts the base again)."""
    return r


def _order(place: Place) -> tuple[int, int]:
    return (place.cell or 0, place.line)


def _families(o: Obj) -> set[str]:
    out: set[str] = set()
    for r in o.refs:
        out |= _family(r)
    return out


def lb_is(o: Obj, role: str) -> bool:
    return o.ref is not None and role in o.ref.nodes


def _ctx_head(ctx) -> int | None:
    return ctx.head - 1 if ctx.head is not None else None


def _band(v: View, i: int, j: int) -> float:
    return float(v.band[i, j]) if isinstance(v.band, np.ndarray) else float(v.band)


def _show_view(h: Hit) -> str:
    v = h.view
    if v is None:
        return "?"
    s = lb.SHOWN.get(v.node, v.node)
    if v.h is not None:
        s += f"^({v.h + 1})" if v.node not in ("W_Q", "W_K", "W_V") else f" head {v.h + 1}"
    if v.b:
        s += f" (sequence {v.b + 1})"
    if h.how == "T":
        s += "ᵀ"
    elif h.how == "row":
        s += f" row {h.index + 1}"
    elif h.how == "col":
        s += f" column {h.index + 1}"
    if v.variant == "unshifted":
        s += " (without subtracting the row max)"
    return s


def _what(o: Obj) -> str:
    shape = "×".join(map(str, o.a.shape))
    name = o.a.label.strip()[:40] or "unlabelled"
    return f"{name} ({shape})"


def _short(o: Obj) -> str:
    nums = [c.text for c in o.a.numbers]
    return "[" + ", ".join(nums[:6]) + (", …" if len(nums) > 6 else "") + "]"


def _nth(o: Obj, i: int, j: int) -> Num | None:
    try:
        return o.a.rows[i][j]
    except (IndexError, TypeError):
        return None


def _view_index(h: Hit, i: int, j: int) -> tuple[int, int]:
    if h.how == "T":
        return j, i
    if h.how == "row":
        return h.index, (j if h.ok.shape[0] == 1 else i)
    if h.how == "col":
        return (j if h.ok.shape[0] == 1 else i), h.index
    return i, j


def _layout(h: Hit, M: np.ndarray) -> np.ndarray | None:
    if h.how == "full":
        return M
    if h.how == "T":
        return M.T
    if h.how == "row":
        return M[h.index:h.index + 1].reshape(h.ok.shape)
    if h.how == "col":
        return M[:, h.index:h.index + 1].T.reshape(h.ok.shape)
    return None


def _digits(s: str) -> str:
    return re.sub(r"[^0-9]", "", s.lstrip("-+").lstrip("0.") or "0")


def _simple_kind(num: Num, exact: float) -> str:
    if not math.isfinite(exact):
        return "wrong_value"
    if exact != 0 and num.contains(-exact):
        return "dropped_sign"
    want = num.rounded(exact)
    a, b = num.text.lstrip("+"), want
    if a.lstrip("-") != b.lstrip("-") and len(a.lstrip("-")) == len(b.lstrip("-")):
        da, db = a.lstrip("-"), b.lstrip("-")
        diff = [k for k in range(len(da)) if da[k] != db[k]]
        if len(diff) == 2 and da[diff[0]] == db[diff[1]] and da[diff[1]] == db[diff[0]]:
            return "swapped_digits"
    return "wrong_value"


def _simple_cause(num: Num, exact: float) -> str | None:
    k = _simple_kind(num, exact)
    return {"dropped_sign": "dropped sign", "swapped_digits": f"swapped digits: the value rounds to "
            f"{num.rounded(exact)}"}.get(k)


def _arith_step(values) -> str | None:
    """The step of an arithmetic line that names no quantity, from what it computes: √d_k, e^x, a softmax."""
    ops = set()
    for _, p, _ in values:
        ops |= _ops(p.expr)
    if ops & {"cos", "sin"}:
        return "rope"
    if "exp" in ops:
        return "softmax"
    if ops == {"sqrt"} or ops == {"sqrt", "/"} and len(values) <= 3:
        return "scale"
    return None


def _ops(e) -> set[str]:
    if isinstance(e, nb.Op):
        out = {e.op} if e.op not in ("+", "*", "neg") else set()
        for a in e.args:
            out |= _ops(a)
        return out
    return set()


def _chain_text(c: Chain) -> str:
    """The claim as a reader sees it: ω_23, not the tokens' ω _{23}."""
    text = re.sub(r"\s+([_^])", r"\1", c.text)
    return re.sub(r"([_^])\{([^{}\s]*)\}", r"\1\2", text)[:80]


def _split_labels(text: str) -> list[str]:
    """Q, K, V ∈ ...: the names a shape is stated for (commas inside parentheses do not separate)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "({[") - (ch in ")}]")
        if ch in ",，、" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [x for x in out if x.strip()]


def _elided_positions(rows, R: int, C: int):
    """(printed row, printed col, row, col) of each number of a matrix with ⋮ rows and ⋯ columns."""
    gap_rows = [k for k, r in enumerate(rows) if r is None]
    if len(gap_rows) > 1:
        return None
    n_rows = len(rows)
    if gap_rows:
        g = gap_rows[0]
        after = n_rows - g - 1
        if g + after > R:
            return None
        row_idx = list(range(g)) + [None] + list(range(R - after, R))
    else:
        if n_rows != R:
            return None
        row_idx = list(range(R))
    out = []
    for pi, r in enumerate(rows):
        if r is None:
            continue
        gaps = [k for k, c in enumerate(r) if c is None]
        if len(gaps) > 1:
            return None
        if gaps:
            g = gaps[0]
            after = len(r) - g - 1
            if g + after > C:
                return None
            col_idx = list(range(g)) + [None] + list(range(C - after, C))
        else:
            if len(r) != C:
                return None
            col_idx = list(range(C))
        for pj, c in enumerate(r):
            if c is not None and col_idx[pj] is not None:
                out.append((pi, pj, row_idx[pi], col_idx[pj]))
    return out
