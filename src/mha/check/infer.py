"""Which configuration a document describes: a search over candidates, scored by the numbers they explain.

Candidates are built from the objects that can be inputs (X, the weights shared or per head, Q/K/V
given directly) and vary the head count, the K/V head count, the scale, the causal mask, the output
projection, the row- or column-vector convention and RoPE.  Each candidate's trace is computed
(`mha.trace`), and its score is how many printed numbers of the other objects it explains within
their rounding.  Coordinate ascent keeps the best; ties go to the simplest.  The runner-up of each
choice is kept as evidence.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from . import labels as lb
from .model import View, Views, compute
from .objects import Array, Document, ExprPart, LabelPart
from .numbers import plain_number

MAX_OBJECTS = 600


# ------------------------------------------------------------------ objects ready for matching

@dataclass
class Obj:
    """A printed array with what it says about itself, ready to be compared with views."""
    a: Array
    ref: lb.Ref | None                    # the nearest label
    refs: list = field(default_factory=list)   # every label of its chain: W_1^Q = W_1^K = I = [...]
    lo: np.ndarray | None = None          # 2-D grids (None when elided or ragged)
    hi: np.ndarray | None = None
    val: np.ndarray | None = None
    slices: int = 1                       # N-D printouts: how many 2-D slices are stacked in the grid
    head_hint: int | None = None          # 0-based head from the surrounding prose
    batch_hint: int | None = None
    row_hint: int | None = None           # 1-based row from the surrounding prose ("the first row")
    n: int = 0

    @property
    def shape(self) -> tuple[int, int] | None:
        return None if self.val is None else self.val.shape

    @property
    def slice_shape(self) -> tuple[int, int] | None:
        if self.val is None:
            return None
        return (self.val.shape[0] // self.slices, self.val.shape[1])


# Labels that number keys and values: rows count the cached keys first, heads count K/V heads.
KEY_SIDE = frozenset({"K", "V", "Kh", "Vh", "Kr", "Vr", "Kc", "Vc"})


@dataclass
class Bases:
    """Whether the document counts heads and rows from 0 (code) or from 1 (prose and papers)."""
    head: int = 1
    row: int = 1
    # set once the configuration is known (judge): a decoding step with a KV cache numbers its query rows by
    # their position after the cached tokens; grouped-query attention numbers its K/V by K/V head
    query: int = 0                        # tokens before query row 0 (cached ones)
    kv_heads: tuple[int, ...] | None = None   # for each K/V head, the first query head that uses it (G < H)

    def resolve(self, ref: lb.Ref | None) -> lb.Ref | None:
        if ref is None:
            return None
        key_side = ref.nodes[0] in KEY_SIDE
        head = None if ref.raw_head is None else ref.raw_head - self.head
        if head is not None and key_side and self.kv_heads is not None and 0 <= head < len(self.kv_heads):
            head = self.kv_heads[head]
        return replace(ref, head=head,
                       row=None if ref.raw_row is None else ref.raw_row - self.row - (0 if key_side else self.query),
                       col=ref.col if ref.raw_col is None else ref.raw_col - self.row)

    def with_config(self, cfg: Any) -> "Bases":
        from ..explanation.tokens import first_query
        kv = None
        if 0 < cfg.G < cfg.n_heads:
            kv = tuple(next(h for h in range(cfg.n_heads) if cfg.group(h) == g) for g in range(cfg.G))
        return replace(self, query=first_query(cfg), kv_heads=kv)


    def label(self, text: str) -> lb.Ref | None:
        return self.resolve(lb.parse_label(text))


def prepare(doc: Document) -> tuple[list[Obj], Bases]:
    raw_heads = []
    raw_rows = []
    all_refs = []
    for a in doc.arrays[:MAX_OBJECTS]:
        refs = []
        for text in [a.label] + [x for x in a.labels if x != a.label]:
            ref = lb.parse_label(text)
            if ref is not None:
                refs.append(ref)
        all_refs.append(refs)
        for ref in refs:
            if ref.raw_head is not None:
                raw_heads.append(ref.raw_head)
            if ref.raw_row is not None:
                raw_rows.append(ref.raw_row)
    ctx_heads = [a.context.head for a in doc.arrays if a.context.head is not None]
    bases = Bases(0 if (0 in raw_heads or 0 in ctx_heads) else 1, 0 if 0 in raw_rows else 1)
    out = []
    for a, refs in zip(doc.arrays[:MAX_OBJECTS], all_refs):
        refs = [bases.resolve(r) for r in refs]
        if a.style == "prose":                       # words in a sentence name a vector only weakly
            refs = [replace(r, strong=False) for r in refs]
        # an entry's name cannot label a matrix, nor a row's name several rows (w_12 = np.round(A, 4))
        rows = sum(1 for r in a.rows if r is not None)
        refs = [r for r in refs if not (r.raw_col is not None and len(a.numbers) > 1)
                and not (r.raw_row is not None and rows > 1 and not a.lead)]
        o = Obj(a, refs[0] if refs else None, refs, n=len(a.numbers))
        if a.context.head is not None:
            o.head_hint = a.context.head - (0 if 0 in ctx_heads else 1)
        o.batch_hint = a.context.batch
        o.row_hint = a.context.row
        g = a.grids()
        computed = sum(bool(re.search(r"[-+*/×·^(]", c.text.lstrip("-+")) and "." in c.text
                            and not re.fullmatch(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", c.text)) for c in a.numbers)
        if g is not None and computed * 2 <= len(a.numbers):
            o.lo, o.hi, o.val = g
            if a.lead:
                o.slices = int(np.prod(a.lead))
        out.append(o)
    return out, bases


# ------------------------------------------------------------------ comparing an object with views

def within(lo: np.ndarray, hi: np.ndarray, M: np.ndarray, band: Any = 0.0, slack: float = 0.0) -> np.ndarray:
    """Which printed cells the values M round to (exact -inf must be printed as -inf)."""
    with np.errstate(invalid="ignore", over="ignore"):
        unit = (hi - lo)
        tol = 1e-9 * np.maximum(1.0, np.abs(np.where(np.isfinite(M), M, 0.0))) + band + slack * unit
        ok = (M >= lo - tol) & (M <= hi + tol)
        ok |= np.isneginf(M) & np.isneginf(lo)
        ok &= ~(np.isneginf(M) ^ np.isneginf(lo))
    return ok


@dataclass
class Hit:
    """How an object lines up with a view: the whole (maybe transposed), one row, one column, or a stack."""
    view: View | None
    how: str                      # full, T, row, col, stack
    index: int | None             # row / column index
    ok: np.ndarray                # bool per printed cell
    exact: np.ndarray             # the view's values in the object's layout
    band: Any = 0.0
    views: list[View] | None = None   # for stacks

    @property
    def n_ok(self) -> int:
        return int(self.ok.sum())

    @property
    def all(self) -> bool:
        return bool(self.ok.all())


def alignments(o: Obj, vs: Views, nodes: set[str] | None = None, slack: float = 0.0,
               allow_T: bool = True) -> list[Hit]:
    """Every way the object can stand for a view of the same size."""
    if o.val is None:
        return []
    r, c = o.val.shape
    hits: list[Hit] = []
    if o.slices > 1:
        return _stack_hits(o, vs, nodes, slack)
    for v in vs.by_shape.get((r, c), []):
        if nodes is None or v.node in nodes:
            hits.append(Hit(v, "full", None, within(o.lo, o.hi, v.M, v.band, slack), v.M, v.band))
    if allow_T and r != c:
        for v in vs.by_shape.get((c, r), []):
            if nodes is None or v.node in nodes:
                band = v.band.T if isinstance(v.band, np.ndarray) else v.band
                hits.append(Hit(v, "T", None, within(o.lo, o.hi, v.M.T, band, slack), v.M.T, band))
    elif allow_T and r == c and r > 1:
        for v in vs.by_shape.get((r, c), []):
            if nodes is None or v.node in nodes:
                band = v.band.T if isinstance(v.band, np.ndarray) else v.band
                hits.append(Hit(v, "T", None, within(o.lo, o.hi, v.M.T, band, slack), v.M.T, band))
    if r == 1 or c == 1:
        vec_lo, vec_hi = (o.lo.reshape(1, -1), o.hi.reshape(1, -1))
        n = vec_lo.shape[1]
        for v in vs.by_width.get(n, []):
            if (nodes is None or v.node in nodes) and v.M.shape[0] > 1 or (v.M.shape[0] == 1 and (r, c) != (1, n)):
                ok_all = within(vec_lo, vec_hi, v.M, v.band, slack)          # every row at once
                band_rows = v.band if isinstance(v.band, np.ndarray) else None
                for i in range(v.M.shape[0]):
                    band = band_rows[i].reshape(o.lo.shape) if band_rows is not None else v.band
                    hits.append(Hit(v, "row", i, ok_all[i].reshape(o.lo.shape), v.M[i].reshape(o.lo.shape), band))
        if n > 1:
            for shape, views in vs.by_shape.items():
                if shape[0] != n:
                    continue
                for v in views:
                    if nodes is not None and v.node not in nodes:
                        continue
                    band_t = v.band.T if isinstance(v.band, np.ndarray) else v.band
                    ok_all = within(vec_lo, vec_hi, v.M.T, band_t, slack)
                    for j in range(shape[1]):
                        band = band_t[j].reshape(o.lo.shape) if isinstance(band_t, np.ndarray) else band_t
                        hits.append(Hit(v, "col", j, ok_all[j].reshape(o.lo.shape), v.M[:, j].reshape(o.lo.shape),
                                        band))
    return hits


def _stack_hits(o: Obj, vs: Views, nodes: set[str] | None, slack: float) -> list[Hit]:
    """An N-D printout ([B, T, d], [H, T, S], [B, H, T, S]) against the stacked views of one node."""
    k = o.slices
    rs, c = o.slice_shape
    hits = []
    groups: dict[tuple[str, str], list[View]] = {}
    for v in vs.by_shape.get((rs, c), []):
        if nodes is None or v.node in nodes:
            groups.setdefault((v.node, v.variant), []).append(v)
    for (node, _), views in groups.items():
        views = sorted(views, key=lambda v: ((v.b or 0), (v.h if v.h is not None else -1)))
        per_head = [v for v in views if v.h is not None]
        full = [v for v in views if v.h is None]
        options = []
        if full and len(full) == k:
            options.append(full)
        if per_head:
            B = max((v.b or 0) for v in per_head) + 1
            if len(per_head) == k:
                options.append(per_head)
            elif B > 1 or len(per_head) // max(B, 1) == k:
                first = [v for v in per_head if (v.b or 0) == 0]
                if len(first) == k:
                    options.append(first)
        for opt in options:
            M = np.concatenate([v.M for v in opt], axis=0)
            band = np.concatenate([np.broadcast_to(v.band, v.M.shape) for v in opt], axis=0)
            hits.append(Hit(opt[0], "stack", None, within(o.lo, o.hi, M, band, slack), M, band, views=opt))
    return hits


class Stacks:
    """Every view of a trace stacked by shape, so that one comparison scores an object against all of them."""

    def __init__(self, vs: Views):
        self.full: dict[tuple[int, int], tuple[np.ndarray, list[str]]] = {}
        self.rows: dict[int, tuple[np.ndarray, list[str]]] = {}
        rows: dict[int, list[tuple[np.ndarray, str]]] = {}
        for shape, views in vs.by_shape.items():
            self.full[shape] = (np.stack([v.M for v in views]), [v.node for v in views])
            for v in views:
                rows.setdefault(shape[1], []).append((v.M, v.node))
                if shape[0] > 1:
                    rows.setdefault(shape[0], []).append((v.M.T, v.node))
        for n, items in rows.items():
            self.rows[n] = (np.concatenate([m for m, _ in items], axis=0),
                            [node for m, node in items for _ in range(m.shape[0])])

    @staticmethod
    def _counts(lo: np.ndarray, hi: np.ndarray, M: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", over="ignore"):
            finite = np.isfinite(M)
            unit = hi - lo
            tol = 1e-9 * np.maximum(1.0, np.abs(np.where(finite, M, 0.0))) + unit
            ok = (M >= lo - tol) & (M <= hi + tol) & (finite | np.isneginf(lo))
        return ok.reshape(ok.shape[0], -1).sum(axis=1)

    def best(self, o: "Obj", nodes: set[str] | None) -> float:
        r, c = o.val.shape
        best = 0.0
        cands = []
        if (r, c) in self.full:
            cands.append((self.full[(r, c)], o.lo, o.hi, False))
        if (c, r) in self.full:
            cands.append((self.full[(c, r)], o.lo.T, o.hi.T, False))
        if r == 1 or c == 1:
            n = r * c
            if n in self.rows:
                cands.append((self.rows[n], o.lo.reshape(1, -1), o.hi.reshape(1, -1), True))
        inputs = nodes is not None and bool(nodes & {"W_Q", "W_K", "W_V", "W_O", "X"})
        for (M, names), lo, hi, is_rows in cands:
            counts = self._counts(lo[None] if not is_rows else lo, hi[None] if not is_rows else hi, M)
            if nodes is not None:
                # a matrix labelled as a weight is a weight: matching some other quantity earns nothing
                weights = np.array([1.0 if name in nodes else (0.0 if inputs else 0.8) for name in names])
                counts = counts * weights
            if counts.size:
                best = max(best, float(counts.max()))
        return best


# ------------------------------------------------------------------ candidates

@dataclass(frozen=True)
class Choice:
    """One value of one dimension of the search, with the array objects it takes as given."""
    value: Any
    label: str
    uses: frozenset = frozenset()
    cost: float = 0.0


@dataclass
class Candidate:
    dims: dict[str, Choice]

    def mapping(self) -> dict[str, Any] | None:
        d = {k: c.value for k, c in self.dims.items()}
        m: dict[str, Any] = {}
        if d["mode"] == "QKV":
            m.update(Q=d["Q"], K=d["K"], V=d["V"])
        else:
            m["X"] = d["X"]
            for w in ("W_Q", "W_K", "W_V"):
                m[w] = d[w]
        m["n_heads"] = d["H"]
        G = d.get("G") or _kv_heads(m, d["H"])
        if G and G != d["H"]:
            m["n_kv_heads"] = G
        m["W_O"] = d.get("W_O", "none")
        if d.get("scale") is not None:
            m["scale"] = d["scale"]
        mask = d.get("mask")
        if mask is not None and mask is not False:
            if isinstance(mask, str):
                m["causal"] = mask
            elif isinstance(mask, dict):
                m.update(mask)
        if d.get("rope"):
            m["rope"] = d["rope"]
        if d.get("cache") is not None:
            m["cache"] = d["cache"]
        if d.get("alibi"):
            m["alibi"] = d["alibi"]
        for bname in ("b_Q", "b_K", "b_V", "b_O"):
            if d.get(bname) is not None:
                m[bname] = d[bname]
        return m

    @property
    def uses(self) -> frozenset:
        out: frozenset = frozenset()
        for c in self.dims.values():
            out |= c.uses
        return out

    @property
    def cost(self) -> float:
        return sum(c.cost for c in self.dims.values())

    def describe(self) -> dict[str, str]:
        return {k: c.label for k, c in self.dims.items()}


@dataclass
class Scored:
    cand: Candidate
    trace: Any
    views: Views | None
    score: float
    explained: int
    total: int


@dataclass
class Inference:
    best: Scored | None
    evidence: list[str] = field(default_factory=list)
    alternatives: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    looked_for: str = ""
    objs: list[Obj] = field(default_factory=list)
    repairs: list[tuple[int, int, int, float, str]] = field(default_factory=list)   # (obj id, i, j, value, how)
    bases: Bases = field(default_factory=Bases)


def _arr(o: Obj) -> np.ndarray:
    if o.slices > 1:
        return o.val.reshape(tuple(o.a.lead) + o.slice_shape)
    return o.val


def _is(o: Obj, node: str, strong_only: bool = False) -> bool:
    return any(node in r.nodes and (r.strong or not strong_only) for r in o.refs)


def _ref_for(o: Obj, node: str) -> lb.Ref | None:
    return next((r for r in o.refs if node in r.nodes), None)


class Search:
    """Builds the candidate dimensions from the document, then climbs."""

    def __init__(self, doc: Document, objs: list[Obj]):
        self.doc = doc
        self.objs = [o for o in objs if o.val is not None]
        self.all_objs = objs
        self.cache: dict[str, Scored] = {}
        self.hints = {h.kind: h for h in doc.hints}
        self.hint_list = doc.hints
        self.sizes = self._sizes()

    # ---------------------------------------------------------- what the text states
    def _sizes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        names = {"h": "H", "H": "H", "n_heads": "H", "num_heads": "H", "n_head": "H", "nhead": "H",
                 "num_attention_heads": "H", "heads": "H", "d_k": "d_k", "d_h": "d_k", "d_head": "d_k",
                 "head_dim": "d_k", "d_{k}": "d_k", "d_{h}": "d_k", "T": "T", "d": "d_model", "d_model": "d_model",
                 "d_{model}": "d_model", "n_kv_heads": "G", "num_key_value_heads": "G", "d_v": "d_v"}
        for c in self.doc.chains:
            for k in range(len(c.parts) - 1):
                a, b = c.parts[k], c.parts[k + 1]
                if isinstance(a, LabelPart) and isinstance(b, ExprPart):
                    key = re.sub(r"[\\{}\s]|mathrm|text", "", a.text)
                    n = plain_number(b.expr)
                    if key in names and n is not None and n.decimals is None and 0 < n.value < 10000:
                        out.setdefault(names[key], int(n.value))
        for h in self.hint_list:
            if h.kind == "assign":
                name, num = h.value
                key = name.split(".")[-1]
                if key in names and num.decimals is None and 0 < num.value < 10000:
                    out.setdefault(names[key], int(num.value))
            if h.kind == "heads" and "H" not in out:
                v = h.value
                zh = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
                try:
                    out["H_text"] = zh.get(v) or int(v)
                except (TypeError, ValueError):
                    pass
        return out

    # ---------------------------------------------------------- inputs
    def x_options(self) -> list[Choice]:
        out: list[Choice] = []
        seen: list[np.ndarray] = []

        def add(arr: np.ndarray, label: str, uses: frozenset, cost: float) -> None:
            for s in seen:
                if s.shape == arr.shape and np.array_equal(s, arr):
                    return
            seen.append(arr)
            out.append(Choice(arr, label, uses, cost))
        labelled = [o for o in self.objs if _is(o, "X") and _ref_for(o, "X").row is None]
        batches = [o for o in labelled if o.slices == 1 and o.batch_hint is not None]
        for o in labelled:
            if o.val.shape[0] >= 1 and o.n >= 2:
                add(_arr(o), f"X from {o.a.place}", frozenset([o.a.id]), 0.0)
        if len(batches) >= 2 and len({o.val.shape for o in batches}) == 1:
            stack = np.stack([o.val for o in sorted(batches, key=lambda o: o.batch_hint)])
            add(stack, f"X batch of {len(batches)} from {batches[0].a.place}", frozenset(o.a.id for o in batches), 0.0)
        rows = [o for o in self.objs if _is(o, "X") and _ref_for(o, "X").row is not None and o.val.shape[0] == 1]
        if rows:
            by = {}
            for o in rows:
                by.setdefault(_ref_for(o, "X").row, o)
            if sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by}) == 1:
                arr = np.concatenate([by[k].val for k in sorted(by)], axis=0)
                add(arr, f"X from its rows at {by[0].a.place}", frozenset(o.a.id for o in by.values()), 0.2)
        if not out:
            for o in self.objs[:6]:
                if o.ref is None and o.val.shape[0] >= 2 and o.val.shape[1] >= 2 and np.isfinite(o.val).all():
                    add(_arr(o), f"X: the first matrix, at {o.a.place}", frozenset([o.a.id]), 1.0)
                    break
        return out

    def weight_options(self, role: str, d_in: int | None) -> list[Choice]:
        out: list[Choice] = []
        printed = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is None and o.slices == 1
                   and _ref_for(o, role).row is None]
        per_head = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is not None and o.slices == 1]
        three_d = [o for o in self.objs if _is(o, role) and o.slices > 1 and len(o.a.lead) == 1]
        for o in printed[:2]:
            W = o.val
            if d_in is None or W.shape[0] == d_in:
                out.append(Choice(W, f"{role} printed at {o.a.place}", frozenset([o.a.id])))
            if (d_in is None or W.shape[1] == d_in) and (W.shape[0] != W.shape[1] or d_in is None or True):
                out.append(Choice(W.T.copy(), f"{role} printed at {o.a.place}, used as W x (transposed)",
                                  frozenset([o.a.id]), 0.5))
        ident_heads = self._identity_heads(role)
        if per_head or len(ident_heads) > 1:
            by = {}
            for o in per_head:
                by.setdefault(_ref_for(o, role).head, o)
            shapes = {by[k].val.shape for k in by}
            if len(shapes) <= 1:
                shape = shapes.pop() if shapes else ((d_in, d_in) if d_in else None)
                if shape is not None and shape[0] == shape[1]:
                    for h in ident_heads:
                        if h not in by:
                            by[h] = None
            if by and sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by if by[k] is not None}) <= 1 \
                    and any(by[k] is not None for k in by) or (by and all(v is None for v in by.values()) and d_in
                                                               and sorted(by) == list(range(len(by))) and len(by) > 1):
                some = next((by[k].val for k in by if by[k] is not None), None)
                eye = np.eye(some.shape[0] if some is not None else d_in)
                stack = np.stack([by[k].val if by[k] is not None else eye for k in sorted(by)])
                by = {k: v for k, v in by.items() if v is not None}
                if d_in is None or stack.shape[1] == d_in:
                    where = next(iter(by.values())).a.place if by else "the text (identity per head)"
                    out.append(Choice(stack, f"{role} per head, printed at {where}",
                                      frozenset(o.a.id for o in by.values())))
                if d_in is None or stack.shape[2] == d_in:
                    out.append(Choice(stack.transpose(0, 2, 1).copy(), f"{role} per head (transposed)",
                                      frozenset(o.a.id for o in by.values()), 0.5))
        for o in three_d:
            arr = _arr(o)
            out.append(Choice(arr, f"{role} per head, printed at {o.a.place}", frozenset([o.a.id])))
        ident_cost = 0.0 if self._said_identity(role) else (0.3 if not out else 2.0)
        out.append(Choice("identity", f"{role} = I" + (" (stated)" if self._said_identity(role) else " (assumed)"),
                          frozenset(), ident_cost))
        return out

    def _identity_heads(self, role: str) -> set[int]:
        """Heads whose weight for `role` the document sets to the identity: W_1^Q = W_2^K = I."""
        out: set[int] = set()
        for c in self.doc.chains:
            labs = [p.text.replace(" ", "") for p in c.parts if isinstance(p, LabelPart)]
            if not any(re.fullmatch(r"I(_\{?\d+\}?)?|\\?mathbf\{?I\}?(_\{?\d+\}?)?|\{?I\}?_?\{?\d*\}?", x)
                       for x in labs):
                continue
            for x in labs:
                r = lb.parse_label(x)
                if r is not None and role in r.nodes and r.raw_head is not None:
                    out.add(r.raw_head - 1)
        return {h for h in out if h >= 0}

    def _said_identity(self, role: str) -> bool:
        for h in self.hint_list:
            if h.kind == "identity" and h.value == role:
                return True
            if h.kind == "identity_name":
                r = lb.parse_label(h.value)
                if r is not None and role in r.nodes:
                    return True
        for c in self.doc.chains:
            labs = [p.text.replace(" ", "") for p in c.parts if isinstance(p, LabelPart)]
            if any(re.fullmatch(r"I(_\{?\d+\}?)?|\\?mathbf\{?I\}?(_\{?\d+\}?)?|\{?I\}?_?\{?\d*\}?", x) for x in labs):
                for x in labs:
                    r = lb.parse_label(x)
                    if r is not None and role in r.nodes and r.nodes[0].startswith("W_"):
                        return True
        return False

    def qkv_options(self) -> list[Choice]:
        got = {}
        for role in ("Q", "K", "V"):
            full = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is None
                    and _ref_for(o, role).row is None and o.val.shape[0] >= 1]
            if full:
                o = full[0]
                got[role] = (_arr(o), frozenset([o.a.id]), str(o.a.place))
                continue
            heads = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is not None
                     and _ref_for(o, role).row is None and o.slices == 1]
            by = {}
            for o in heads:
                by.setdefault(_ref_for(o, role).head, o)
            if by and sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by}) == 1:
                got[role] = (np.concatenate([by[k].val for k in sorted(by)], axis=1),
                             frozenset(o.a.id for o in by.values()), str(by[0].a.place))
        if len(got) < 3:
            return []
        return [Choice({"Q": got["Q"][0], "K": got["K"][0], "V": got["V"][0]},
                       f"Q, K, V given (from {got['Q'][2]}, {got['K'][2]}, {got['V'][2]})",
                       got["Q"][1] | got["K"][1] | got["V"][1])]

    def head_options(self, width: int) -> list[Choice]:
        out = []
        stated = self.sizes.get("H") or self.sizes.get("H_text")
        labelled = [o.ref.head for o in self.objs if o.ref is not None and o.ref.head is not None]
        from_labels = max(labelled) + 1 if labelled else None
        dk = self.sizes.get("d_k")
        cands = []
        for h in (stated, from_labels, (width // dk if dk and width % dk == 0 else None), 1, 2, 3, 4, 6, 8):
            if h and width % h == 0 and h not in cands and h <= width:
                cands.append(h)
        for k, h in enumerate(cands[:6]):
            cost = 0.0 if h in (stated, from_labels) else (0.2 if h == 1 else 0.4 + 0.05 * h)
            out.append(Choice(h, f"H = {h}" + (" (stated)" if h == stated else ""), frozenset(), cost))
        return out

    def scale_options(self) -> list[Choice]:
        unscaled = "unscaled" in self.hints
        out = [Choice(None, "1/√d_k", frozenset(), 0.3 if unscaled else 0.0),
               Choice("none", "none (unscaled)", frozenset(), 0.0 if unscaled else 0.5),
               Choice("1/d_k", "1/d_k", frozenset(), 0.6)]
        for h in self.hint_list:
            if h.kind in ("scale", "scale_sqrt"):
                try:
                    x = float(h.value)
                except (TypeError, ValueError):
                    continue
                if x > 0:
                    v = 1 / math.sqrt(x) if h.kind == "scale_sqrt" else (x if x < 1 else 1 / x)
                    out.append(Choice(v, f"{v:.6g} (stated at {h.place})", frozenset(), 0.4))
        return out

    def mask_options(self, T: int, S: int) -> list[Choice]:
        causal = "causal" in self.hints
        out = [Choice(None, "no mask", frozenset(), 0.3 if causal else 0.0),
               Choice("top_left", "causal", frozenset(), 0.0 if causal else 0.5)]
        if T != S:
            out.append(Choice("bottom_right", "causal (bottom right)", frozenset(), 0.6))
        # the -inf pattern of printed scores
        pats = []
        for o in self.objs:
            if o.val.shape == (T, S) and o.slices == 1 and np.isneginf(o.val).any():
                pats.append(~np.isneginf(o.val))
        if pats:
            first = pats[0]
            if all((p == first).all() for p in pats) and not (first == np.tril(np.ones((T, S), bool))).all():
                if first.any(axis=1).all():
                    lengths = first.sum(axis=1)
                    if (first == (np.arange(S)[None, :] < lengths[:, None])).all() and len(set(lengths)) == 1:
                        out.append(Choice({"key_lengths": [int(lengths[0])]}, f"padding: {int(lengths[0])} keys",
                                          frozenset(), 0.3))
                    else:
                        out.append(Choice({"mask": first.tolist()}, "the mask of the printed -∞", frozenset(), 0.5))
        return out

    def cache_options(self) -> list[Choice]:
        """A decoding step's KV cache: the printed K_cache and V_cache of every K/V head (labelled as such)."""
        out = [Choice(None, "no KV cache")]
        per: dict[str, dict[int | None, Obj]] = {"Kc": {}, "Vc": {}}
        for o in self.objs:
            if o.ref is not None and o.ref.nodes[0] in per and o.slices == 1 and np.isfinite(o.val).all():
                per[o.ref.nodes[0]].setdefault(o.ref.head, o)
        K, V = per["Kc"], per["Vc"]
        if not K or set(K) != set(V):
            return out
        heads = sorted(K, key=lambda h: -1 if h is None else h)
        if heads != [None] and heads != list(range(len(heads))):
            return out
        ks, vs = [K[h].val for h in heads], [V[h].val for h in heads]
        if len({k.shape for k in ks}) != 1 or len({v.shape for v in vs}) != 1 or ks[0].shape[0] != vs[0].shape[0]:
            return out
        uses = frozenset(o.a.id for o in list(K.values()) + list(V.values()))
        cost = 0.0 if len(uses) == 2 * len(heads) else 0.5
        out.insert(0, Choice({"K": np.stack(ks), "V": np.stack(vs)},
                             f"KV cache of {ks[0].shape[0]} tokens from {K[heads[0]].a.place}", uses, cost))
        return out

    def wo_options(self, width_in: int | None) -> list[Choice]:
        out = [o for o in self.weight_options("W_O", width_in) if not isinstance(o.value, str)]
        said_none = "no_wo" in self.hints
        out.append(Choice("none", "no W_O" + (" (stated)" if said_none else ""), frozenset(),
                          0.0 if said_none else 0.1))
        out.append(Choice("identity", "W_O = I" + (" (stated)" if self._said_identity("W_O") else ""), frozenset(),
                          0.0 if self._said_identity("W_O") else 0.2))
        return out

    # ---------------------------------------------------------- scoring
    def evaluate(self, cand: Candidate) -> Scored | None:
        m = cand.mapping()
        key = repr(sorted((k, c.label, id(c.value) if isinstance(c.value, np.ndarray) else repr(c.value)[:200])
                          for k, c in cand.dims.items()))
        if key in self.cache:
            return self.cache[key]
        t = compute(m)
        if t is None:
            self.cache[key] = None
            return None
        vs = Views.of(t)
        score, explained, total = self.score(vs, cand.uses)
        s = Scored(cand, t, vs, score - 0.01 * cand.cost, explained, total)
        self.cache[key] = s
        return s

    def score(self, vs: Views, uses: frozenset) -> tuple[float, int, int]:
        explained = total = 0
        fast = Stacks(vs)
        for o in self.objs:
            n = o.val.size
            total += n
            if o.a.id in uses:
                explained += n           # an input taken as printed agrees with itself
                continue
            nodes = None
            if o.ref is not None and o.ref.strong:
                nodes = _family(o.ref)
            if o.slices == 1:
                best = fast.best(o, nodes)
                if best >= max(1.0, 0.5 * n):
                    explained += int(round(best))
                continue
            best = 0
            for hit in alignments(o, vs, nodes=None, slack=1.0):
                k = hit.n_ok
                if nodes is not None and hit.view is not None and hit.view.node not in nodes:
                    k = k * 0.8          # a value match against another quantity than the label says
                if k > best:
                    best = k
                    if best >= n:
                        break
            if best >= max(1.0, 0.5 * n):
                explained += int(round(best))
        return float(explained), explained, total

    # ---------------------------------------------------------- the climb
    def run(self) -> Inference:
        inf = Inference(None, objs=self.all_objs)
        modes: list[dict[str, Choice]] = []
        xs = self.x_options()
        for x in xs[:4]:
            d_in = x.value.shape[-1]
            dims = {"mode": Choice("X", "X and weights"), "X": x}
            for role in ("W_Q", "W_K", "W_V"):
                dims[role] = self.weight_options(role, d_in)[0]
            modes.append(dims)
        for q in self.qkv_options():
            v = q.value
            modes.append({"mode": Choice("QKV", q.label, q.uses), "Q": Choice(v["Q"], "Q"),
                          "K": Choice(v["K"], "K"), "V": Choice(v["V"], "V")})
        if not modes:
            inf.looked_for = ("an input X (a matrix labelled X, x, input, embeddings, 输入, or rows x_1, x_2, ...) "
                              "or Q, K and V given directly")
            return inf
        best: Scored | None = None
        repairs: list = []
        for base in modes[:6]:
            s = self.climb(base)
            fixes: list = []
            if s is not None and s.explained < s.total and s.cand.dims["mode"].value == "X":
                s, fixes = self.repair(s)
            if s is not None and (best is None or s.score > best.score):
                best, repairs = s, fixes
        inf.repairs = repairs
        inf.best = best
        if best is not None:
            inf.evidence, inf.alternatives = self.explain(best)
        return inf

    def repair(self, best: Scored) -> tuple[Scored, list]:
        """A slip in a printed input (X, a weight, Q/K/V given) spoils everything after it.  Try the usual
        slips undone, one input cell at a time; keep one that makes clearly more numbers fit."""
        by_id = {o.a.id: o for o in self.objs}
        need = max(3, 0.05 * best.total)
        top = (best, [])
        for name, choice in best.cand.dims.items():
            if not isinstance(choice.value, np.ndarray) or len(choice.uses) != 1:
                continue
            o = by_id.get(next(iter(choice.uses)))
            if o is None or o.slices != 1 or o.val is None:
                continue
            arr = choice.value
            flip = arr.shape != o.val.shape
            if flip and arr.T.shape != o.val.shape:
                continue                          # used in another layout (sliced, stacked): no cell-by-cell undo
            for i in range(o.val.shape[0]):
                for j in range(o.val.shape[1]):
                    num = o.a.rows[i][j]
                    for value, how in _undo_slips(num, o.val, i, j):
                        trial_arr = np.array(arr, dtype=float)
                        if flip:
                            trial_arr.T[i, j] = value
                        else:
                            trial_arr[i, j] = value
                        dims = dict(best.cand.dims)
                        dims[name] = Choice(trial_arr, choice.label, choice.uses, choice.cost)
                        s = self.evaluate(Candidate(dims))
                        if s is not None and s.explained >= top[0].explained + need:
                            top = (s, [(o.a.id, i, j, value, how)])
            if len(top[1]):
                break
        if top[1]:
            again = self.climb(dict(top[0].cand.dims), fixed=True)
            if again is not None and again.score > top[0].score:
                top = (again, top[1])
        return top

    # (the mode's Q, K, V live in one Choice; a slip there is judged as a wrong value of that input)

    def options(self, dims: dict[str, Choice], name: str) -> list[Choice]:
        x = dims.get("X")
        if name in ("W_Q", "W_K", "W_V"):
            return self.weight_options(name, x.value.shape[-1] if x is not None else None)
        if name == "X":
            return self.x_options()[:4]
        width = self._qk_width(dims)
        if name == "H":
            return self.head_options(width) if width else [Choice(1, "H = 1")]
        if name == "G":
            H = dims["H"].value
            kw = self._qk_width(dims, "K")
            out = [Choice(None, "G = H")]
            if kw and width and kw < width and (width // H) and kw % (width // H) == 0:
                g = kw // (width // H)
                if g >= 1 and H % g == 0:
                    out.insert(0, Choice(g, f"n_kv_heads = {g} (K is narrower than Q)"))
            return out
        if name == "scale":
            return self.scale_options()
        if name == "mask":
            T, S = self._ts(dims)
            return self.mask_options(T, S) if T else [Choice(None, "no mask")]
        if name == "W_O":
            H = dims["H"].value
            v_width = self._v_width(dims)
            return self.wo_options(v_width)
        if name == "cache":
            return self.cache_options()
        if name == "alibi":
            said = "alibi" in self.hints
            return [Choice(None, "no ALiBi", frozenset(), 0.0 if not said else 0.5),
                    Choice(True, "ALiBi (Press et al.'s slopes)", frozenset(), 0.0 if said else 1.5)]
        if name == "rope":
            said = "rope" in self.hints
            return [Choice(None, "no RoPE", frozenset(), 0.0 if not said else 0.5),
                    Choice(True, "RoPE (rotate-half)", frozenset(), 0.0 if said else 1.5),
                    Choice({"style": "interleaved"}, "RoPE (interleaved pairs)", frozenset(), 0.2 if said else 1.7)]
        return [dims[name]]

    def _qk_width(self, dims, name: str = "Q") -> int | None:
        """The width of Q (name "Q") or K (name "K") over all heads, from the inputs or the projection."""
        if dims["mode"].value == "QKV":
            return dims[name].value.shape[-1]
        W = dims[f"W_{name}"].value
        if isinstance(W, str):
            return dims["X"].value.shape[-1]
        return W.shape[0] * W.shape[2] if W.ndim == 3 else W.shape[1]

    def _v_width(self, dims) -> int | None:
        if dims["mode"].value == "QKV":
            H = dims["H"].value
            return dims["V"].value.shape[-1] * (H // (dims.get("G").value or H) if dims.get("G") else 1)
        W = dims["W_V"].value
        H = dims["H"].value
        G = dims.get("G").value if dims.get("G") else None
        rep = H // G if G else 1
        if isinstance(W, str):
            return dims["X"].value.shape[-1] * rep
        return (W.shape[0] * W.shape[2] if W.ndim == 3 else W.shape[1]) * rep

    def _ts(self, dims) -> tuple[int | None, int | None]:
        if dims["mode"].value == "QKV":
            return dims["Q"].value.shape[-2], dims["K"].value.shape[-2]
        x = dims["X"].value
        cache = dims.get("cache").value if dims.get("cache") is not None else None
        return x.shape[-2], x.shape[-2] + (0 if cache is None else cache["K"].shape[-2])

    def climb(self, base: dict[str, Choice], fixed: bool = False) -> Scored | None:
        if fixed:
            return self._ascend(dict(base), ["H", "scale", "mask", "G", "W_O", "rope", "alibi", "cache"])
        dims = dict(base)
        width = self._qk_width(dims)
        dims["H"] = (self.head_options(width) or [Choice(1, "H = 1")])[0] if width else Choice(1, "H = 1")
        dims["G"] = Choice(None, "G = H")
        dims["scale"] = self.scale_options()[0] if "unscaled" not in self.hints else self.scale_options()[1]
        T, S = self._ts(dims)
        dims["mask"] = Choice(None, "no mask") if "causal" not in self.hints else Choice("top_left", "causal")
        dims["W_O"] = self.options(dims, "W_O")[0]
        dims["rope"] = Choice(None, "no RoPE")
        dims["cache"] = self.cache_options()[0]          # a printed cache is an input, like X
        dims["alibi"] = Choice(None, "no ALiBi")
        order = ["H", "scale", "mask", "G", "W_O", "rope", "alibi", "cache"]
        if dims["mode"].value == "X":
            order = ["X", "W_Q", "W_K", "W_V"] + order
        return self._ascend(dims, order)

    def _ascend(self, dims: dict[str, Choice], order: list[str]) -> Scored | None:
        cur = self.evaluate(Candidate(dict(dims)))
        if cur is None:
            # some combinations cannot be computed (identity that does not fit): try each dimension anyway
            cur_score = -1e9
        else:
            cur_score = cur.score
        for _ in range(3):
            changed = False
            for name in order:
                for opt in self.options(dims, name):
                    if opt.label == dims[name].label and (not isinstance(opt.value, np.ndarray) or
                                                         opt.value is dims[name].value):
                        continue
                    trial = dict(dims)
                    trial[name] = opt
                    if name in ("X", "W_Q", "W_K", "W_V", "H", "mode"):
                        trial["W_O"] = self.options(trial, "W_O")[0] if name != "W_O" else opt
                        if name != "H":
                            w = self._qk_width(trial)
                            if w and w % trial["H"].value:
                                trial["H"] = (self.head_options(w) or [Choice(1, "H = 1")])[0]
                    s = self.evaluate(Candidate(trial))
                    if s is not None and s.score > cur_score + 1e-9:
                        dims, cur, cur_score, changed = trial, s, s.score, True
            if not changed:
                break
        return cur

    def explain(self, best: Scored) -> tuple[list[str], dict[str, list[tuple[str, int]]]]:
        """For each dimension, the chosen value, the numbers it explains and the runner-up's."""
        lines = []
        alts: dict[str, list[tuple[str, int]]] = {}
        dims = best.cand.dims
        for name in ("mode", "X", "W_Q", "W_K", "W_V", "H", "G", "scale", "mask", "W_O", "rope", "alibi", "cache"):
            if name not in dims:
                continue
            opts = self.options(dims, name) if name != "mode" else [dims["mode"]]
            scored = []
            for opt in opts:
                if opt.label == dims[name].label:
                    continue
                trial = dict(dims)
                trial[name] = opt
                s = self.evaluate(Candidate(trial))
                scored.append((opt.label, s.explained if s is not None else 0))
            alts[name] = scored
            runner = max(scored, key=lambda x: x[1]) if scored else None
            text = f"{name}: {dims[name].label}"
            if runner is not None:
                text += f" — explains {best.explained} of {best.total} printed numbers; with {runner[0]}: {runner[1]}"
            lines.append(text)
        return lines, alts


def _width(w: Any, d_in: int | None) -> int | None:
    if isinstance(w, str):
        return d_in if w == "identity" else None
    w = np.asarray(w)
    return w.shape[0] * w.shape[2] if w.ndim == 3 else w.shape[-1]


def _kv_heads(m: dict[str, Any], H: int) -> int | None:
    """K/V heads from the widths: a W_K narrower than W_Q means fewer key/value heads (GQA, MQA)."""
    if "Q" in m:
        qw, kw = np.asarray(m["Q"]).shape[-1], np.asarray(m["K"]).shape[-1]
    else:
        d_in = np.asarray(m["X"]).shape[-1]
        qw, kw = _width(m["W_Q"], d_in), _width(m["W_K"], d_in)
        if isinstance(m["W_Q"], np.ndarray) and m["W_Q"].ndim == 3 and isinstance(m["W_K"], np.ndarray) \
                and m["W_K"].ndim == 3:
            return m["W_K"].shape[0] if H % m["W_K"].shape[0] == 0 else None
    if not qw or not kw or qw % H:
        return None
    dk = qw // H
    if kw < qw and kw % dk == 0 and H % (kw // dk) == 0:
        return kw // dk
    return None


def _undo_slips(num, val: np.ndarray, i: int, j: int) -> list[tuple[float, str]]:
    """The values a printed number may have been before a usual slip: its sign, two digits swapped back,
    a neighbour's value copied over it."""
    out: list[tuple[float, str]] = []
    if num is None:
        return out
    if num.value != 0:
        out.append((-num.value, "dropped sign"))
    t = num.text.lstrip("-+")
    sign = -1.0 if num.value < 0 else 1.0
    for k in range(len(t) - 1):
        if t[k].isdigit() and t[k + 1].isdigit() and t[k] != t[k + 1]:
            s = t[:k] + t[k + 1] + t[k] + t[k + 2:]
            try:
                out.append((sign * float(s), "swapped digits"))
            except ValueError:
                pass
    return out[:6]


def _family(ref: lb.Ref) -> set[str]:
    nodes = set(ref.nodes)
    if "Q" in nodes:
        nodes |= {"Qh", "Qr"}
    if "K" in nodes:
        nodes |= {"Kh", "Kr"}
    if "V" in nodes:
        nodes |= {"Vh", "Vr"}
    return nodes


def infer(doc: Document, objs: list[Obj], bases: Bases | None = None) -> Inference:
    inf = Search(doc, objs).run()
    inf.bases = bases or Bases()
    return inf
