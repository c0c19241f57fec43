"""Trace -> explanation: the ordered steps of the worked example, with their numbers.

This module decides *what* to say and formats every number (at the requested
precision) from the trace; renderers decide only *how* it looks.  Prose comes
from the zh / en catalogs in `texts/`, which share keys and placeholders.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

import numpy as np

from ..trace import Trace
from .blocks import Block, Display, Items, Matrix, Note, Para, Section, Table

LANGS = ("en", "zh")
MAX_ROWS = 8        # larger matrices are elided like NumPy does: first EDGE, ..., last EDGE
MAX_COLS = 8
EDGE = 3
MAX_HEADS = 4       # more heads than this: only the first two are walked through unless asked
SMALL = 6           # per-component arithmetic only when S and d_head are this small


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The prose for one language: key -> template with <placeholders>."""
    if lang not in LANGS:
        raise ValueError(f"lang: expected one of {LANGS}, got {lang!r}")
    text = resources.files("mha.explanation").joinpath("texts", f"{lang}.json").read_text("utf-8")
    return json.loads(text)


def fill(template: str, params: dict[str, Any]) -> str:
    """Replace <name> placeholders; a missing one is a bug in the catalog, so it raises."""
    out = template
    for name, value in params.items():
        out = out.replace(f"<{name}>", str(value))
    if _placeholders(out):
        raise KeyError(f"unfilled placeholder in {template!r}")
    return out


def _placeholders(text: str) -> list[str]:
    return re.findall(r"<([a-z_][a-z0-9_]*)>", text)


@dataclass(frozen=True)
class Options:
    lang: str = "en"
    precision: int = 4
    heads: tuple[int, ...] | None = None     # 0-based heads to walk through; None = automatic
    tokens: slice | None = None              # query rows shown in detail; None = automatic
    full: bool = False                       # never elide
    batch: int = 0                           # which sequence of the batch to walk through
    tiled_block: int | None = None           # add the online-softmax walk-through with this key block


class Builder:
    """Builds the sections for one trace.  Every number is read from the trace."""

    def __init__(self, trace: Trace, opts: Options):
        self.t, self.o, self.c = trace, opts, trace.config
        self.cat = catalog(opts.lang)
        c = self.c
        if not 0 <= opts.batch < c.B:
            raise ValueError(f"batch: sequence {opts.batch} does not exist (B = {c.B})")
        if opts.heads is not None:
            bad = [h for h in opts.heads if not 0 <= h < c.n_heads]
            if bad:
                raise ValueError(f"heads: {bad} out of range, the layer has H = {c.n_heads} heads (0-based)")
            self.heads = list(opts.heads)
        elif c.n_heads > MAX_HEADS and not opts.full:
            self.heads = [0, 1]
        else:
            self.heads = list(range(c.n_heads))
        rows = range(c.T)[opts.tokens] if opts.tokens is not None else range(c.T)
        if len(rows) == 0:
            raise ValueError(f"tokens: the range selects no query token (T = {c.T})")
        self.rows = list(rows)                        # query rows shown in matrices
        self.read_rows = self.rows if (len(self.rows) <= 4 or opts.full or opts.tokens) else self.rows[:2]

    # ------------------------------------------------------------ helpers

    def tr(self, key: str, **params: Any) -> str:
        return fill(self.cat[key], params)

    def n(self, x: float) -> str:
        """A number as printed: integers plainly, others rounded to the precision, -inf as -\\infty."""
        x = float(x)
        if math.isinf(x):
            return "-\\infty" if x < 0 else "\\infty"
        if x.is_integer() and abs(x) < 1e9:
            return str(int(x))
        s = f"{x:.{self.o.precision}f}"
        return s[1:] if s.startswith("-") and float(s) == 0 else s

    def vec(self, v: Iterable[float]) -> str:
        return "[" + ", ".join(self.n(x) for x in v) + "]"

    def exact(self, arr: np.ndarray) -> bool:
        return bool(np.all((arr == np.round(arr)) | ~np.isfinite(arr)))

    def pick(self, n: int, only: list[int] | None = None) -> tuple[int | None, ...]:
        """Indices to show: all of them, or the first and last EDGE around an elision (None)."""
        idx = list(range(n)) if only is None else only
        if self.o.full or len(idx) <= MAX_ROWS:
            return tuple(idx)
        return tuple(idx[:EDGE]) + (None,) + tuple(idx[-EDGE:])

    def matrix(self, symbol: str, arr: np.ndarray, *, query_rows: bool = False, heat: bool = False,
               row_labels: str = "token", col_labels: str | None = None, suffix: str | None = None,
               masked: np.ndarray | None = None) -> Matrix:
        """arr is 2-D; rows are query tokens when query_rows (then --tokens applies)."""
        rows = self.pick(arr.shape[0], self.rows if query_rows else None)
        cols = self.pick(arr.shape[1])
        cells = tuple(tuple(None if (i is None or j is None) else self.n(arr[i, j]) for j in cols)
                      for i in rows)
        values = np.array([[np.nan if (i is None or j is None) else arr[i, j] for j in cols] for i in rows])
        shown_mask = None if masked is None else np.array(
            [[False if (i is None or j is None) else bool(masked[i, j]) for j in cols] for i in rows])
        rl = tuple("" if i is None else str(i + 1) for i in rows) if row_labels == "token" else None
        cl = tuple("" if j is None else str(j + 1) for j in cols) if col_labels == "token" else None
        if suffix is None:
            suffix = f"\\in \\mathbb{{R}}^{{{arr.shape[0]} \\times {arr.shape[1]}}}"
        return Matrix(symbol=symbol, cells=cells, rows=rows, cols=cols, shape=arr.shape,
                      rel="=" if self.exact(arr) else "\\approx", suffix=suffix,
                      row_labels=rl, col_labels=cl, values=values, heat=heat, masked=shown_mask)

    def sec(self, key: str, title_key: str, blocks: list[Block], level: int = 2, **params: Any) -> Section:
        return Section(key=key, title=self.tr(title_key, **params), blocks=tuple(b for b in blocks if b), level=level)

    # ------------------------------------------------------------ the steps

    def build(self) -> list[Section]:
        secs = [self.setup(), self.projections(), self.split()]
        if self.has_mask():
            secs.append(self.masks())
        for h in self.heads:
            secs += self.head(h)
        if len(self.heads) < self.c.n_heads:
            secs.append(self.sec("heads_omitted", "omitted.title", [Para(self.tr(
                "omitted.body", shown=", ".join(str(h + 1) for h in self.heads), H=self.c.n_heads))]))
        if self.o.tiled_block:
            from .tiled import tiled_sections
            secs += tiled_sections(self)
        secs += [self.concat(), self.output(), self.dimensions(), self.closing()]
        return secs

    def setup(self) -> Section:
        c, b = self.c, self.o.batch
        blocks: list[Block] = [Para(self.tr("setup.intro"))]
        blocks.append(Items((
            self.tr("setup.B", B=c.B), self.tr("setup.T", T=c.T),
            self.tr("setup.d_model", d_model=c.d_model), self.tr("setup.H", H=c.n_heads),
            self.tr("setup.d_head", d_head=c.d_head),
        ) + ((self.tr("setup.S", S=c.S),) if c.key is not None else ())))
        blocks.append(Display(f"d_{{\\text{{model}}}} = H \\cdot d_h = {c.n_heads} \\times {c.d_head} = {c.d_model}"))
        blocks.append(Para(self.tr("setup.why_split")))
        if c.B > 1:
            blocks.append(Note(self.tr("setup.batch", b=b + 1, B=c.B)))
        blocks.append(Para(self.tr("setup.X_rows", T=c.T, d_model=c.d_model)))
        X = c.X[b]
        blocks.append(self.matrix("X", X, query_rows=True))
        if len(self.rows) <= 8 and c.d_model <= MAX_COLS:
            blocks.append(Items(tuple(f"$x_{{{i + 1}}} = {self.vec(X[i])}$" for i in self.rows)))
        if c.key is not None:
            blocks.append(Para(self.tr("setup.cross", S=c.S)))
            blocks.append(self.matrix("X_k", c.key[b]))
            if not np.array_equal(c.key, c.value):
                blocks.append(self.matrix("X_v", c.value[b]))
        return self.sec("setup", "setup.title", blocks)

    def projections(self) -> Section:
        c, t, b = self.c, self.t, self.o.batch
        blocks: list[Block] = [Para(self.tr("proj.intro"))]
        src = "X" if c.key is None else "X_k"
        srcv = "X" if c.key is None else "X_v"
        blocks.append(Display(f"Q = X W_Q, \\quad K = {src} W_K, \\quad V = {srcv} W_V"))
        ident = set(c.weights_identity)
        if {"W_Q", "W_K", "W_V"} <= ident:
            blocks.append(Para(self.tr("proj.identity", d_model=c.d_model)))
        for name in ("W_Q", "W_K", "W_V"):
            if name not in ident:
                blocks.append(self.matrix(name, getattr(c, name), row_labels="none"))
        for bname, sym in (("b_Q", "b_Q"), ("b_K", "b_K"), ("b_V", "b_V")):
            bias = getattr(c, bname)
            if bias is not None:
                blocks.append(Para(self.tr("proj.bias", name=f"${sym}$")))
                blocks.append(self.matrix(sym, bias[None], row_labels="none"))
        same = (np.array_equal(t.Q, t.K) and np.array_equal(t.K, t.V))
        if same and np.array_equal(t.Q[b], c.X[b]):
            blocks.append(Para(self.tr("proj.all_equal_X")))
            blocks.append(self.matrix("Q = K = V", t.Q[b], query_rows=True))
        else:
            blocks.append(self.matrix("Q", t.Q[b], query_rows=True))
            blocks.append(self.matrix("K", t.K[b]))
            blocks.append(self.matrix("V", t.V[b]))
        return self.sec("projections", "proj.title", blocks)

    def split(self) -> Section:
        c, t, b = self.c, self.t, self.o.batch
        dh = c.d_head
        blocks: list[Block] = [Para(self.tr("split.intro", H=c.n_heads, d_head=dh))]
        blocks.append(Items(tuple(
            self.tr("split.cols", h=h + 1, first=h * dh + 1, last=(h + 1) * dh) for h in range(c.n_heads)
            if h in self.heads or c.n_heads <= MAX_HEADS)))
        for h in self.heads:
            Qh, Kh, Vh = t.Qh[b, h], t.Kh[b, h], t.Vh[b, h]
            shape = f"\\in \\mathbb{{R}}^{{{Qh.shape[0]} \\times {dh}}}"
            if np.array_equal(Qh, Kh) and np.array_equal(Kh, Vh):
                blocks.append(self.matrix(f"Q^{{({h + 1})}} = K^{{({h + 1})}} = V^{{({h + 1})}}", Qh,
                                          query_rows=True, suffix=shape))
            else:
                blocks.append(self.matrix(f"Q^{{({h + 1})}}", Qh, query_rows=True))
                blocks.append(self.matrix(f"K^{{({h + 1})}}", Kh))
                blocks.append(self.matrix(f"V^{{({h + 1})}}", Vh))
        blocks.append(Para(self.tr("split.rows_cols", d_head=dh)))
        return self.sec("split", "split.title", blocks)

    def has_mask(self) -> bool:
        c = self.c
        return c.causal != "none" or c.key_lengths is not None or c.mask is not None or c.bias is not None

    def masks(self) -> Section:
        c, b = self.c, self.o.batch
        items = []
        if c.causal != "none":
            items.append(self.tr(f"mask.causal_{c.causal}"))
            if c.T != c.S:
                items.append(self.tr("mask.causal_offset", T=c.T, S=c.S,
                                     offset=0 if c.causal == "top_left" else c.S - c.T))
        if c.key_lengths is not None:
            items.append(self.tr("mask.key_lengths", lengths=", ".join(map(str, c.key_lengths.tolist())),
                                 L=int(c.key_lengths[b]), b=b + 1))
        if c.mask is not None:
            items.append(self.tr("mask.bool"))
        if c.bias is not None:
            items.append(self.tr("mask.bias"))
        blocks: list[Block] = [Para(self.tr("mask.intro")), Items(tuple(items)),
                               Para(self.tr("mask.effect"))]
        fm = self.t.fully_masked[b]
        if fm.any():
            rows = sorted({int(i) + 1 for i in np.argwhere(fm)[:, 1]})
            blocks.append(Note(self.tr("mask.fully_masked", rows=", ".join(map(str, rows)))))
        return self.sec("masks", "mask.title", blocks)

    # ------------------------------------------------------------ one head

    def head(self, h: int) -> list[Section]:
        t, c, b = self.t, self.c, self.o.batch
        H = h + 1
        T, S, dh = c.T, c.S, c.d_head
        QKt, Sm, A, O = t.QKt[b, h], t.S[b, h], t.A[b, h], t.O[b, h]
        Vh = t.Vh[b, h]
        secs = [self.sec(f"head{H}", "head.title", [
            Para(self.tr("head.intro", h=H)),
            Display(f"O^{{({H})}} = \\mathrm{{softmax}}\\left(\\frac{{Q^{{({H})}} (K^{{({H})}})^\\top}}"
                    f"{{\\sqrt{{d_h}}}}\\right) V^{{({H})}}")], h=H)]
        # scores
        blocks: list[Block] = [Para(self.tr("scores.intro", h=H))]
        blocks.append(Display(f"Q^{{({H})}} (K^{{({H})}})^\\top:\\quad [{T}, {dh}] \\times [{dh}, {S}] = [{T}, {S}]"))
        blocks.append(self.matrix(f"Q^{{({H})}} (K^{{({H})}})^\\top", QKt, query_rows=True, col_labels="token"))
        i = self.read_rows[0]
        blocks.append(Para(self.tr("scores.meaning", T=T, S=S)))
        pairs = [self.tr("scores.pair", i=i + 1, j=j + 1, value=self.n(QKt[i, j])) for j in self._some(S)]
        blocks.append(Para(self.tr("scores.read_row", i=i + 1, row=self.vec(QKt[i, list(self._some(S))]) if S <= MAX_COLS else "")))
        blocks.append(Items(tuple(pairs)))
        secs.append(self.sec(f"head{H}.scores", "scores.title", blocks, level=3, h=H))

        # scale (and mask)
        scale = c.effective_scale
        default_scale = c.scale is None
        blocks = [Para(self.tr("scale.intro" if default_scale else "scale.custom",
                               d_head=dh, sqrt=self.n(math.sqrt(dh)), scale=self.n(scale)))]
        frac = (f"\\frac{{Q^{{({H})}} (K^{{({H})}})^\\top}}{{\\sqrt{{{dh}}}}}" if default_scale
                else f"{self.n(scale)} \\cdot Q^{{({H})}} (K^{{({H})}})^\\top")
        blocks.append(Display(f"S^{{({H})}} = {frac}" + (" + \\text{bias}" if c.bias is not None else "")))
        if self.has_mask():
            blocks.append(Para(self.tr("scale.masked")))
        blocks.append(self.matrix(f"S^{{({H})}}", Sm, query_rows=True, col_labels="token", masked=Sm == -np.inf))
        secs.append(self.sec(f"head{H}.scale", "scale.title", blocks, level=3, h=H))

        # softmax
        blocks = [Para(self.tr("softmax.intro", h=H))]
        blocks.append(Display(f"A^{{({H})}}_{{ij}} = \\frac{{e^{{S_{{ij}} - m_i}}}}{{\\sum_{{j'}} e^{{S_{{ij'}} - m_i}}}}, \\quad m_i = \\max_j S_{{ij}}"))
        blocks.append(Para(self.tr("softmax.stable")))
        live = [r for r in self.read_rows if not t.fully_masked[b, h, r]]
        if live:
            r = live[0]
            cols = list(self._some(S))
            blocks.append(Para(self.tr("softmax.steps_row", i=r + 1)))
            blocks.append(Items((
                f"$m_{{{r + 1}}} = {self.n(t.row_max[b, h, r])}$",
                f"$e^{{S - m}} = {self.vec(t.E[b, h, r, cols])}$" if S <= MAX_COLS else
                f"$e^{{S - m}} = [{', '.join(self.n(x) for x in t.E[b, h, r, cols[:EDGE]])}, \\ldots]$",
                f"$\\sum = {self.n(t.row_sum[b, h, r])}$",
            )))
        blocks.append(self.matrix(f"A^{{({H})}}", A, query_rows=True, col_labels="token", heat=True,
                                  masked=Sm == -np.inf))
        sums = A.sum(axis=-1)
        blocks.append(Para(self.tr("softmax.row_sums", sums=", ".join(self.n(s) for s in sums[self.read_rows]))))
        for r in self.read_rows:
            if t.fully_masked[b, h, r]:
                blocks.append(Note(self.tr("softmax.fully_masked_row", i=r + 1)))
                continue
            if S <= SMALL:
                blocks.append(Para(self.tr("softmax.read_row", i=r + 1, h=H)))
                blocks.append(Items(tuple(self.tr("softmax.weight", i=r + 1, j=j + 1, w=self.n(A[r, j]))
                                          for j in range(S))))
            else:
                top = np.argsort(-A[r], kind="stable")[:3]
                blocks.append(Para(self.tr("softmax.top", i=r + 1, h=H, top=", ".join(
                    self.tr("softmax.top_item", j=j + 1, w=self.n(A[r, j])) for j in top))))
            vis = t.S[b, h, r] > -np.inf
            if vis.sum() > 1 and np.ptp(t.S[b, h, r][vis]) == 0:
                blocks.append(Note(self.tr("softmax.uniform", i=r + 1, k=int(vis.sum()),
                                           w=self.n(1.0 / vis.sum()))))
        secs.append(self.sec(f"head{H}.softmax", "softmax.title", blocks, level=3, h=H))

        # A V
        blocks = [Para(self.tr("av.intro", h=H))]
        blocks.append(Display(f"O^{{({H})}} = A^{{({H})}} V^{{({H})}}:\\quad [{T}, {S}] \\times [{S}, {dh}] = [{T}, {dh}]"))
        blocks.append(self.matrix(f"V^{{({H})}}", Vh))
        for r in self.read_rows:
            if t.fully_masked[b, h, r]:
                continue
            blocks.append(Display(self.weighted_sum(H, r, A[r], Vh)))
            if S <= SMALL and dh <= 4:
                for d in range(dh):
                    blocks.append(Display(self.component_sum(A[r], Vh[:, d], O[r, d])))
                slip = self.rounding_slip(A[r], Vh, O[r])
                if slip:
                    blocks.append(Note(slip))
            blocks.append(Display(f"o^{{({H})}}_{{{r + 1}}} = {self.vec(O[r])}"))
        blocks.append(self.matrix(f"O^{{({H})}}", O, query_rows=True))
        blocks.append(Para(self.tr("av.meaning", T=T, d_head=dh, h=H)))
        secs.append(self.sec(f"head{H}.av", "av.title", blocks, level=3, h=H))
        return secs

    def _some(self, n: int) -> range | list[int]:
        return range(n) if n <= MAX_COLS or self.o.full else list(range(EDGE)) + [n - 1]

    def weighted_sum(self, H: int, r: int, a: np.ndarray, V: np.ndarray) -> str:
        S = len(a)
        js = list(range(S)) if S <= SMALL or self.o.full else [0, 1, None, S - 1]
        terms = [("\\cdots" if j is None else f"{self.n(a[j])}\\,v^{{({H})}}_{{{j + 1}}}") for j in js]
        return f"o^{{({H})}}_{{{r + 1}}} = " + " + ".join(terms)

    def component_sum(self, a: np.ndarray, v: np.ndarray, result: float) -> str:
        terms = " + ".join(f"{self.n(w)} \\times {self.n(x)}" for w, x in zip(a, v))
        return f"{terms} = {self.n(result)}"

    def rounding_slip(self, a: np.ndarray, V: np.ndarray, o: np.ndarray) -> str | None:
        """When adding the terms as shown would change the last digit, say why (the document's 0.7518)."""
        p = self.o.precision
        for d in range(V.shape[1]):
            naive = sum(round(float(w), p) * round(float(x), p) for w, x in zip(a, V[:, d]))
            if f"{naive:.{p}f}" != f"{o[d]:.{p}f}":
                return self.tr("av.rounding", naive=f"{naive:.{p}f}", exact=f"{o[d]:.{p + 2}f}",
                               shown=f"{o[d]:.{p}f}")
        return None

    def heatmaps(self) -> tuple[Matrix, ...]:
        """A^(h) of every head (not only the walked-through ones), for the HTML grid and plots."""
        t, b = self.t, self.o.batch
        return tuple(self.matrix(f"A^{{({h + 1})}}", t.A[b, h], query_rows=True, col_labels="token", heat=True,
                                 masked=t.S[b, h] == -np.inf, suffix="") for h in range(self.c.n_heads))

    # ------------------------------------------------------------ after the heads

    def concat(self) -> Section:
        c, t, b = self.c, self.t, self.o.batch
        parts = ", ".join(f"O^{{({h + 1})}}" for h in range(min(c.n_heads, MAX_HEADS)))
        if c.n_heads > MAX_HEADS:
            parts += f", \\ldots, O^{{({c.n_heads})}}"
        blocks: list[Block] = [Para(self.tr("concat.intro", H=c.n_heads, d_head=c.d_head, d_model=c.d_model))]
        blocks.append(Display(f"O_{{\\text{{concat}}}} = \\mathrm{{Concat}}({parts})"))
        blocks.append(self.matrix("O_{\\text{concat}}", t.O_concat[b], query_rows=True))
        return self.sec("concat", "concat.title", blocks)

    def output(self) -> Section:
        c, t, b = self.c, self.t, self.o.batch
        blocks: list[Block] = [Para(self.tr("output.intro", d_model=c.d_model))]
        blocks.append(Display("Y = O_{\\text{concat}} W_O" + (" + b_O" if c.b_O is not None else "")))
        if "W_O" in c.weights_identity:
            blocks.append(Para(self.tr("output.identity")))
        else:
            blocks.append(self.matrix("W_O", c.W_O, row_labels="none"))
        if c.b_O is not None:
            blocks.append(self.matrix("b_O", c.b_O[None], row_labels="none"))
        blocks.append(self.matrix("Y", t.Y[b], query_rows=True))
        return self.sec("output", "output.title", blocks)

    def dimensions(self) -> Section:
        rows = []
        for row in self.t.shape_table():
            rows.append((self.tr("dim." + row["step"]), "$" + _symbol_tex(row["symbol"]) + "$",
                         "$[" + ", ".join(map(str, row["shape"])) + "]$"))
        return self.sec("dimensions", "dim.title", [Table(
            header=(self.tr("dim.h_step"), self.tr("dim.h_symbol"), self.tr("dim.h_shape")), rows=tuple(rows))])

    def closing(self) -> Section:
        return self.sec("closing", "closing.title", [
            Display("o^{(h)}_i = \\sum_{j=1}^{S} A^{(h)}_{ij} \\,v^{(h)}_j, \\qquad "
                    "[T, S] \\times [S, d_h] = [T, d_h]"),
            Para(self.tr("closing.body")),
            Para(self.tr("closing.multi")),
        ])


def _symbol_tex(symbol: str) -> str:
    """The trace's plain symbols ("Q^(h) K^(h)T") as LaTeX."""
    s = symbol.replace("^(h)", "^{(h)}").replace("O_concat", "O_{\\text{concat}}")
    s = s.replace("K^{(h)}T", "(K^{(h)})^\\top")
    for w in ("W_Q", "W_K", "W_V", "W_O", "X_k", "X_v"):
        s = s.replace(w, w[:2] + "{" + w[2:] + "}")
    return s
