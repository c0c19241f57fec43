"""The numbers a configuration produces, as the views a printed object can be compared with.

`Views.of(trace)` lists every intermediate as 2-D matrices, one per sequence b and head h
(`View`), under the node names of labels.py.  `band` widens each value by what the rounding
of printed inputs can move it (a weight printed to 4 decimals is taken as printed; the
document's later numbers may follow from the unrounded weight), found by perturbing the
rounded inputs one at a time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .numbers import half_unit
from .gradients import grad_matrices


@dataclass
class View:
    node: str
    b: int | None
    h: int | None
    M: np.ndarray                    # 2-D
    band: np.ndarray | float = 0.0
    variant: str = ""                # "unshifted" (exp without the max), "additive" (mask as 0 / -inf) ...

    @property
    def shape(self) -> tuple[int, int]:
        return self.M.shape


@dataclass
class Views:
    trace: Any
    views: list[View] = field(default_factory=list)
    by_shape: dict[tuple[int, int], list[View]] = field(default_factory=dict)
    by_width: dict[int, list[View]] = field(default_factory=dict)
    by_node: dict[str, list[View]] = field(default_factory=dict)
    hidden: frozenset = frozenset()          # what the start invented (infer/starts.py): never matched

    def add(self, v: View) -> None:
        if v.M.ndim != 2 or v.M.size == 0 or v.node in self.hidden:
            return
        self.views.append(v)
        self.by_shape.setdefault(v.M.shape, []).append(v)
        self.by_width.setdefault(v.M.shape[1], []).append(v)
        self.by_node.setdefault(v.node, []).append(v)

    def get(self, node: str, b: int | None = 0, h: int | None = None, variant: str | None = "") -> list[View]:
        out = []
        for v in self.by_node.get(node, []):
            if b is not None and v.b is not None and v.b != b:
                continue
            if h is not None and v.h is not None and v.h != h:
                continue
            if variant is not None and v.variant != variant:
                continue
            out.append(v)
        return out

    @classmethod
    def of(cls, t: Any) -> "Views":
        vs = cls(t, hidden=getattr(t, "hidden", frozenset()))
        c = t.config
        B, H = c.B, c.n_heads
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            for b in range(B):
                if c.X is not None:
                    vs.add(View("X", b, None, c.X[b]))
                for name in ("Q", "K", "V"):
                    vs.add(View(name, b, None, getattr(t, name)[b]))
                vs.add(View("O_concat", b, None, t.O_concat[b]))
                vs.add(View("Y", b, None, t.Y[b]))
                for h in range(H):
                    g = t.group(h)
                    vs.add(View("Qh", b, h, t.Qh[b, h]))
                    vs.add(View("Kh", b, h, t.Kh[b, g]))
                    vs.add(View("Vh", b, h, t.Vh[b, g]))
                    if t.Qh_rope is not None:
                        vs.add(View("Qr", b, h, t.Qh_rope[b, h]))
                    if t.Kh_rope is not None or c.cache_K is not None:
                        vs.add(View("Kr", b, h, t.K_all[b, g]))
                    if c.cache_K is not None:
                        # a decoding step: what the head attends over (cache rows, then the new ones),
                        # and the cache itself, an input
                        vs.add(View("Vr", b, h, t.V_all[b, g]))
                        vs.add(View("Kc", b, h, c.cache_K[b, g]))
                        vs.add(View("Vc", b, h, c.cache_V[b, g]))
                    for node, arr in (("QKt", t.QKt), ("S", t.S), ("E", t.E), ("A", t.A), ("O", t.O)):
                        vs.add(View(node, b, h, arr[b, h]))
                    vs.add(View("row_max", b, h, t.row_max[b, h][None, :]))
                    vs.add(View("row_sum", b, h, t.row_sum[b, h][None, :]))
                    # many people exponentiate without subtracting the row's maximum first
                    raw = np.exp(t.S[b, h])
                    vs.add(View("E", b, h, raw, variant="unshifted"))
                    vs.add(View("row_sum", b, h, raw.sum(axis=-1)[None, :], variant="unshifted"))
                    vis = t.S[b, h] > -np.inf
                    if not vis.all():
                        vs.add(View("mask", b, h, vis.astype(float)))
                        vs.add(View("mask", b, h, np.where(vis, 0.0, -np.inf), variant="additive"))
                        # torch.triu(ones, diagonal=1): 1 where a key is blocked, the mask masked_fill is given
                        vs.add(View("mask", b, h, (~vis).astype(float), variant="blocked"))
                if H > 1:
                    # nn.MultiheadAttention returns its weights averaged over the heads (average_attn_weights=True,
                    # its default): what its printout shows
                    vs.add(View("A", b, None, t.A[b].mean(axis=0), variant="averaged"))
            weights = [("W_Q", c.W_Q, H), ("W_K", c.W_K, c.G), ("W_V", c.W_V, c.G), ("W_O", c.W_O, None)]
            for name, W, heads in weights:
                if W is None:
                    continue
                vs.add(View(name, None, None, W))
                if heads and heads > 1 and W.shape[1] % heads == 0:
                    w = W.shape[1] // heads
                    for h in range(heads):
                        vs.add(View(name, None, h, W[:, h * w:(h + 1) * w]))
            for name in ("b_Q", "b_K", "b_V", "b_O"):
                bias = getattr(c, name)
                if bias is not None:
                    vs.add(View(name, None, None, bias[None, :]))
            for node, b, h, M, variant in grad_matrices(t):     # the backward pass, when the input asks for it
                vs.add(View(node, b, h, M, variant=variant))
        return vs


def compute(mapping: dict[str, Any]):
    """mha.trace of a candidate configuration, or None when the core refuses it.  A start after X (raw scores,
    weights) is computed as Q, K and V given; what that encoding invents is named in "_hide" and hidden."""
    from ..inputs import MHAInputError
    from ..trace import trace
    hide = mapping.get("_hide")
    if hide:
        mapping = {k: v for k, v in mapping.items() if k != "_hide"}
    try:
        with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
            t = trace(mapping)
    except (MHAInputError, ValueError, TypeError, FloatingPointError, OverflowError, ZeroDivisionError):
        return None
    return Started(t, frozenset(hide)) if hide else t


class Started:
    """A trace that starts after X: every attribute is the trace's; `hidden` lists what the start invented."""

    def __init__(self, t: Any, hidden: frozenset):
        self._t = t
        self.hidden = hidden

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)


# ------------------------------------------------------------------ how far rounded inputs can move a value

def bands(mapping: dict[str, Any], radii: dict[str, np.ndarray], base: Views, budget: int = 400) -> None:
    """Set each view's band: the most its values move when the rounded inputs move within their rounding.

    radii maps an input key of `mapping` (X, W_Q, ...) to the half-unit of each printed entry (0 = exact).
    First-order: the sum over inputs of |change| from moving each entry by its radius; with more
    than `budget` rounded entries, random-sign probes of all entries at once (scaled up by √2).
    """
    entries: list[tuple[str, tuple[int, ...], float]] = []
    fitted = {}
    for key, r in radii.items():
        # an input printed batch by batch (its rows flattened) gets the input's own shape; one that does not fit
        # gives no band (a band is a widening; without it the values are taken as printed)
        r, shape = np.asarray(r, dtype=float), np.shape(_get(mapping, key))
        if r.shape != shape:
            if r.size != int(np.prod(shape)):
                continue
            r = r.reshape(shape)
        fitted[key] = r
    radii = fitted
    for key, r in radii.items():
        for idx in zip(*np.nonzero(r > 0)):
            entries.append((key, tuple(int(i) for i in idx), float(r[idx])))
    if not entries:
        return
    acc = [np.zeros_like(v.M) for v in base.views]

    def fold(t2, combine) -> None:
        """Fold |t2 - base| into acc, view by view, with combine (np.add: first order; np.maximum: probes)."""
        if t2 is None:
            return
        other = Views.of(t2)
        index = {(v.node, v.b, v.h, v.variant): v for v in other.views}
        for k, v in enumerate(base.views):
            w = index.get((v.node, v.b, v.h, v.variant))
            if w is not None and w.M.shape == v.M.shape:
                with np.errstate(invalid="ignore"):
                    d = np.abs(np.where(np.isfinite(v.M) & np.isfinite(w.M), w.M - v.M, 0.0))
                acc[k] = combine(acc[k], d)

    if len(entries) <= budget:
        for key, idx, r in entries:
            m2 = dict(mapping)
            arr = np.array(_get(mapping, key), dtype=float)
            arr[idx] += r
            _set(m2, key, arr)
            fold(compute(m2), np.add)
        scale = 1.0
    else:
        rng = np.random.default_rng(0)
        probes = 24
        for _ in range(probes):
            m2 = dict(mapping)
            for key, r in radii.items():
                arr = np.array(_get(mapping, key), dtype=float)
                _set(m2, key, arr + np.asarray(r) * rng.choice([-1.0, 1.0], size=arr.shape))
            fold(compute(m2), np.maximum)
        scale = 3.0
    for k, v in enumerate(base.views):
        # second-order effects and the core's own float noise: a little more than first order
        v.band = acc[k] * scale * 1.25


def _get(mapping: dict[str, Any], key: str) -> Any:
    """mapping["X"], or mapping["cache"]["K"] for the key "cache.K"."""
    if "." in key:
        outer, inner = key.split(".", 1)
        return mapping[outer][inner]
    return mapping[key]


def _set(mapping: dict[str, Any], key: str, value: Any) -> None:
    if "." in key:
        outer, inner = key.split(".", 1)
        mapping[outer] = {**mapping[outer], inner: value}
    else:
        mapping[key] = value


_SCIENTIFIC = re.compile(r"\d[eE][-+]?\d")


def half_units(rows: list, decimals_floor: int = 3, longest: bool = False) -> np.ndarray | None:
    """The rounding radius of each printed input entry: its half-unit when the object looks rounded.  longest: an
    entry shorter than the rest is its value to the longest precision there (see typed_or_printed)."""
    nums = [c for r in rows if r for c in r if c is not None]
    if not nums:
        return None
    most = max((c.decimals or 0) for c in nums)
    if most < decimals_floor or (decimals_floor < 3 and all(math.isfinite(c.value) and c.value == int(c.value)
                                                            for c in nums)):
        # (short prints read as rounded, but whole values every one, [2.0, 1.0, 0.0], are the values themselves)
        return np.zeros((len(rows), len(rows[0])))
    # a zero printed shorter than the rest ([0.0, 0.707, 0.707]) is a zero, not a rounding of one
    # (an entry in scientific notation, `1.6206e+00` beside `2.8611e-05`, keeps its own precision: every entry
    # shows the same significant digits, so its decimals follow its exponent, not a dropped trailing zero)
    return np.array([[0.0 if c is None or c.decimals is None or (c.value == 0 and c.decimals < most)
                      else half_unit(most if longest and not _SCIENTIFIC.search(c.text) else c.decimals)
                      for c in r] for r in rows])


def _typed_again(a, printed: list) -> bool:
    """The same numbers, written the same way, typed into code or printed by it elsewhere in the document."""
    def texts(x) -> list:
        return [[c.text if c is not None else None for c in r] for r in x.rows if r is not None]
    mine = texts(a)
    return any(b is not a and typed_or_printed(b) and texts(b) == mine for b in printed)


def typed_or_printed(a) -> bool:
    """Code and its printouts: `np.array([[0.2, 1.1, 0.71234]])` typed in, or NumPy printing `[0.1  0.60999]`
    (trailing zeros dropped).  An entry shorter than the rest there is its value, not a rounding to fewer decimals,
    as it may be in a table or a sentence written by hand."""
    return a.place.where in ("code", "output") or a.style in ("code", "numpy", "torch")


def is_finite_number(x: float) -> bool:
    return isinstance(x, float) and math.isfinite(x)


def display_rounded(a, printed: list = ()) -> bool:
    """A torch printout whose every entry shows the same one or two decimals (`tensor([[-0.39,  0.48], [ 1.51,
    -0.40]])` under set_printoptions(precision=2)), as every torch printout of the document does: values held at
    full precision, shown rounded by the print precision, so its digits are roundings even below the three
    decimals from which a printed input is taken as rounded.  (A torch printout with more decimals elsewhere in the
    document shows that the precision was not set that low: those short values are the values.)"""
    if a.place.where != "output" or a.style != "torch":
        return False
    d = {c.decimals for r in a.rows if r for c in r if c is not None}
    if len(d) != 1 or not d <= {1, 2}:
        return False
    for b in printed:
        if b.place.where == "output" and b.style == "torch":
            cells = [c for r in b.rows if r for c in r if c is not None]
            e = {c.decimals for c in cells}        # (whole values, `tensor([0., 0.])`, show no precision)
            if len(e) == 1 and (e.pop() or 0) > min(d) and any(c.value != int(c.value) for c in cells
                                                                if math.isfinite(c.value)):
                return False
    return True


def input_radius(src: list, key: str, arr: np.ndarray, printed: list = ()) -> np.ndarray | None:
    """The rounding radius of each entry of an input built from printed objects: one matrix (or its transpose),
    weights printed per head (stacked in head order) or a bias (one vector, or one per head joined).  printed: the
    document's arrays (model.display_rounded)."""
    if not src or any(o.slices != 1 for o in src) or (len(src) > 1 and arr.ndim == 2):
        return None
    if len(src) > 1:
        src = sorted(src, key=lambda o: next((r.head or 0 for r in o.refs if key in r.nodes), 0))
    rs = [half_units(o.a.rows, decimals_floor=1 if display_rounded(o.a, printed) else 3,
                     longest=typed_or_printed(o.a) or _typed_again(o.a, printed)) for o in src]
    if any(r is None for r in rs):
        return None
    if arr.ndim == 1:
        r = np.concatenate([x.reshape(-1) for x in rs])
        return r if r.shape == arr.shape else None
    r = rs[0] if arr.ndim == 2 else np.stack(rs) if len({x.shape for x in rs}) == 1 else None
    if r is None or r.ndim != arr.ndim:
        return None
    if r.shape == arr.shape:
        return r
    flipped = r.T if r.ndim == 2 else r.transpose(0, 2, 1)
    return flipped if flipped.shape == arr.shape else None
