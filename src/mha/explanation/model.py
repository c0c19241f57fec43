"""Trace -> explanation: the worked example's steps, one method per step, in the core's order.

Each step method reads its numbers from the trace (a head's arrays through
`Trace.head`), takes its words from the zh / en catalogs, and returns a
`Section`, or None when the step does not apply to this configuration.  A new
kind of attention adds one step method (and its catalog texts) and its place
in `build` or `head_steps`; nothing else needs to know.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

import numpy as np

from .base import EDGE, MAX_HEADS, MAX_ROWS, Writer
from .blocks import Block, Display, Items, Matrix, Note, Para, Section, Table
from .numbers import prose_number, same_when_shown

SMALL = 6           # per-component arithmetic only when S and d_head are this small


def sup(name: str, h: int) -> str:
    """A head's symbol in LaTeX: sup("Q", 0) -> "Q^{(1)}"."""
    return f"{name}^{{({h + 1})}}"


class Builder(Writer):
    """The sections of one explanation.  Every number is read from the trace."""

    def build(self, appendix: Iterable[Section] = ()) -> list[Section]:
        """The whole walk-through; appendix (the tiled walk-through) goes after the heads, before the concat."""
        sections = [self.setup(), self.projections(), self.split(), self.masks()]
        for h in self.heads:
            sections += self.head_steps(h)
        sections += [self.omitted(), *appendix, self.concat(), self.output(), self.dimensions(), self.closing()]
        return [s for s in sections if s is not None]

    def head_steps(self, h: int) -> list[Section | None]:
        """One head's steps in the core's order."""
        steps: tuple[Callable[[int], Section | None], ...] = (
            self.head_intro, self.scores, self.scale, self.softmax, self.weighted_sum)
        return [step(h) for step in steps]

    # ------------------------------------------------------------ before the heads

    def setup(self) -> Section:
        c, X = self.c, self.c.X[self.b]
        sizes = [self.tr("setup.B", B=c.B), self.tr("setup.T", T=c.T), self.tr("setup.d_model", d_model=c.d_model),
                 self.tr("setup.H", H=c.n_heads), self.tr("setup.d_head", d_head=c.d_head)]
        if c.key is not None:
            sizes.append(self.tr("setup.S", S=c.S))
        tokens = None
        if len(self.rows) <= MAX_ROWS and c.d_model <= MAX_ROWS:
            tokens = Items(tuple(f"$x_{{{i + 1}}} = {self.vec(X[i])}$" for i in self.rows))
        return self.section("setup", "setup.title", [
            Para(self.tr("setup.intro")), Items(tuple(sizes)),
            Display(f"d_{{\\text{{model}}}} = H \\cdot d_h = {c.n_heads} \\times {c.d_head} = {c.d_model}"),
            Para(self.tr("setup.why_split")),
            Note(self.tr("setup.batch", b=self.b + 1, B=c.B)) if c.B > 1 else None,
            Para(self.tr("setup.X_rows", T=c.T, d_model=c.d_model)),
            self.matrix("X", X, query_rows=True), tokens, *self.cross_inputs()])

    def cross_inputs(self) -> list[Block]:
        """Cross-attention: the key (and value) sequence, when it is not X."""
        c = self.c
        if c.key is None:
            return []
        blocks: list[Block] = [Para(self.tr("setup.cross", S=c.S)), self.matrix("X_k", c.key[self.b])]
        if not np.array_equal(c.key, c.value):
            blocks.append(self.matrix("X_v", c.value[self.b]))
        return blocks

    def projections(self) -> Section:
        c, t, b = self.c, self.t, self.b
        src, srcv = ("X", "X") if c.key is None else ("X_k", "X_v")
        blocks: list[Block] = [Para(self.tr("proj.intro")),
                               Display(f"Q = X W_Q, \\quad K = {src} W_K, \\quad V = {srcv} W_V")]
        ident = set(c.weights_identity)
        if {"W_Q", "W_K", "W_V"} <= ident:
            blocks.append(Para(self.tr("proj.identity", d_model=c.d_model)))
        blocks += [self.matrix(name, getattr(c, name), row_labels=False)
                   for name in ("W_Q", "W_K", "W_V") if name not in ident]
        for name in ("b_Q", "b_K", "b_V"):
            if getattr(c, name) is not None:
                blocks += [Para(self.tr("proj.bias", name=f"${name}$")),
                           self.matrix(name, getattr(c, name)[None], row_labels=False)]
        if np.array_equal(t.Q, t.K) and np.array_equal(t.K, t.V) and np.array_equal(t.Q[b], c.X[b]):
            blocks += [Para(self.tr("proj.all_equal_X")), self.matrix("Q = K = V", t.Q[b], query_rows=True)]
        else:
            blocks += [self.matrix("Q", t.Q[b], query_rows=True), self.matrix("K", t.K[b]),
                       self.matrix("V", t.V[b])]
        return self.section("projections", "proj.title", blocks)

    def split(self) -> Section:
        c, dh = self.c, self.c.d_head
        blocks: list[Block] = [Para(self.tr("split.intro", H=c.n_heads, d_head=dh)), Items(tuple(
            self.tr("split.cols", h=h + 1, first=h * dh + 1, last=(h + 1) * dh) for h in range(c.n_heads)
            if h in self.heads or c.n_heads <= MAX_HEADS))]
        for h in self.heads:
            a = self.t.head(h, self.b)
            if np.array_equal(a["Q"], a["K"]) and np.array_equal(a["K"], a["V"]):
                blocks.append(self.matrix(f"{sup('Q', h)} = {sup('K', h)} = {sup('V', h)}", a["Q"], query_rows=True))
            else:
                blocks += [self.matrix(sup("Q", h), a["Q"], query_rows=True), self.matrix(sup("K", h), a["K"]),
                           self.matrix(sup("V", h), a["V"])]
        blocks.append(Para(self.tr("split.rows_cols", d_head=dh)))
        return self.section("split", "split.title", blocks)

    def has_mask(self) -> bool:
        c = self.c
        return c.causal != "none" or c.key_lengths is not None or c.mask is not None or c.bias is not None

    def masks(self) -> Section | None:
        c, b = self.c, self.b
        if not self.has_mask():
            return None
        items = []
        if c.causal != "none":
            items.append(self.tr(f"mask.causal_{c.causal}"))
            if c.T != c.S:
                items.append(self.tr("mask.causal_offset", T=c.T, S=c.S,
                                     offset=0 if c.causal == "top_left" else c.S - c.T))
        if c.key_lengths is not None:
            items.append(self.tr("mask.key_lengths", lengths=self.listing(c.key_lengths.tolist()),
                                 L=int(c.key_lengths[b]), b=b + 1))
        if c.mask is not None:
            items.append(self.tr("mask.bool"))
        if c.bias is not None:
            items.append(self.tr("mask.bias"))
        fm = self.t.fully_masked[b]
        rows = sorted({int(i) + 1 for i in np.argwhere(fm)[:, 1]})
        return self.section("masks", "mask.title", [
            Para(self.tr("mask.intro")), Items(tuple(items)), Para(self.tr("mask.effect")),
            self.padding_elsewhere(),
            Note(self.tr("mask.fully_masked", rows=self.listing(rows))) if rows else None])

    def padding_elsewhere(self) -> Note | None:
        """The shown sequence has no padding but another one has: say which one shows it."""
        lengths = self.c.key_lengths
        if lengths is None or lengths[self.b] < self.c.S:
            return None
        padded = [i + 1 for i, n in enumerate(lengths.tolist()) if n < self.c.S]
        if not padded:
            return None
        return Note(self.tr("mask.padded_elsewhere", b=self.b + 1, padded=self.listing(padded), first=padded[0]))

    # ------------------------------------------------------------ one head, step by step

    def head_intro(self, h: int) -> Section:
        return self.section(f"head{h + 1}", "head.title", [
            Para(self.tr("head.intro", h=h + 1)),
            Display(f"{sup('O', h)} = \\mathrm{{softmax}}\\left(\\frac{{{sup('Q', h)} ({sup('K', h)})^\\top}}"
                    f"{{\\sqrt{{d_h}}}}\\right) {sup('V', h)}")], h=h + 1)

    def scores(self, h: int) -> Section:
        QKt = self.t.head(h, self.b)["QKt"]
        T, S, dh = self.c.T, self.c.S, self.c.d_head
        i, keys = self.read_rows[0], self.some_keys(S)
        lhs = f"{sup('Q', h)} ({sup('K', h)})^\\top"
        return self.section(f"head{h + 1}.scores", "scores.title", [
            Para(self.tr("scores.intro", h=h + 1)),
            Display(f"{lhs}:\\quad [{T}, {dh}] \\times [{dh}, {S}] = [{T}, {S}]"),
            self.matrix(lhs, QKt, query_rows=True, col_labels=True),
            Para(self.tr("scores.meaning", T=T, S=S)),
            Para(self.tr("scores.read_row", i=i + 1, row=self.say_vec(QKt[i, keys]) if S <= MAX_ROWS else "")),
            Items(tuple(self.tr("scores.pair", i=i + 1, j=j + 1, value=self.say(QKt[i, j])) for j in keys))],
            level=3, h=h + 1)

    def scale(self, h: int) -> Section:
        c, S = self.c, self.t.head(h, self.b)["S"]
        scale, dh = c.effective_scale, c.d_head
        if c.scale is None:
            intro = self.tr("scale.intro", d_head=dh, sqrt=self.say(math.sqrt(dh)), scale=self.say(scale))
            frac = f"\\frac{{{sup('Q', h)} ({sup('K', h)})^\\top}}{{\\sqrt{{{dh}}}}}"
        else:
            intro = self.tr("scale.custom", d_head=dh, sqrt=self.say(math.sqrt(dh)), scale=self.say(scale))
            frac = f"{self.num(scale)} \\cdot {sup('Q', h)} ({sup('K', h)})^\\top"
        bias = " + \\text{bias}" if c.bias is not None else ""
        return self.section(f"head{h + 1}.scale", "scale.title", [
            Para(intro), Display(f"{sup('S', h)} = {frac}{bias}"),
            Para(self.tr("scale.masked")) if self.has_mask() else None,
            self.matrix(sup("S", h), S, query_rows=True, col_labels=True, masked=S == -np.inf)],
            level=3, h=h + 1)

    def softmax(self, h: int) -> Section:
        a = self.t.head(h, self.b)
        blocks: list[Block | None] = [
            Para(self.tr("softmax.intro", h=h + 1)),
            Display(f"{sup('A', h)}_{{ij}} = \\frac{{e^{{S_{{ij}} - m_i}}}}{{\\sum_{{j'}} e^{{S_{{ij'}} - m_i}}}}, "
                    "\\quad m_i = \\max_j S_{ij}"),
            Para(self.tr("softmax.stable")), *self.softmax_substeps(h),
            self.matrix(sup("A", h), a["A"], query_rows=True, col_labels=True, heat=True, masked=a["S"] == -np.inf),
            Para(self.tr("softmax.row_sums", sums=self.listing(self.say(s) for s in a["A"].sum(-1)[self.read_rows])))]
        for r in self.read_rows:
            blocks += self.read_weights(h, r)
        return self.section(f"head{h + 1}.softmax", "softmax.title", blocks, level=3, h=h + 1)

    def softmax_substeps(self, h: int) -> list[Block]:
        """max, shifted exponentials and sum for the first shown row that sees a key."""
        a, fm = self.t.head(h, self.b), self.t.fully_masked[self.b, h]
        live = [r for r in self.read_rows if not fm[r]]
        if not live:
            return []
        r, S = live[0], self.c.S
        keys = self.some_keys(S)
        exps = self.vec(a["exp"][r, keys]) if S <= MAX_ROWS else \
            "[" + ", ".join(self.num(x) for x in a["exp"][r, keys[:EDGE]]) + ", \\ldots]"
        return [Para(self.tr("softmax.steps_row", i=r + 1)), Items((
            f"$m_{{{r + 1}}} = {self.num(a['row_max'][r])}$",
            f"$e^{{S - m}} = {exps}$",
            f"$\\sum = {self.num(a['row_sum'][r])}$"))]

    def read_weights(self, h: int, r: int) -> list[Block]:
        """Row r of A^(h) in words: every visible key's weight when the row is short, else the top three."""
        a = self.t.head(h, self.b)
        A, visible = a["A"][r], a["S"][r] > -np.inf
        if self.t.fully_masked[self.b, h, r]:
            return [Note(self.tr("softmax.fully_masked_row", i=r + 1))]
        keys = np.flatnonzero(visible)
        if self.c.S <= SMALL:
            blocks: list[Block] = [Para(self.tr("softmax.read_row", i=r + 1, h=h + 1)), Items(tuple(
                self.tr("softmax.weight", i=r + 1, j=j + 1, w=self.say(A[j])) for j in keys))]
        else:
            top = keys[np.argsort(-A[keys], kind="stable")[:3]]
            blocks = [Para(self.tr("softmax.top", i=r + 1, h=h + 1, top=self.listing(
                self.tr("softmax.top_item", j=j + 1, w=self.say(A[j])) for j in top)))]
        if len(keys) > 1 and np.ptp(a["S"][r, keys]) == 0:
            blocks.append(Note(self.tr("softmax.uniform", i=r + 1, k=len(keys), w=self.say(1.0 / len(keys)))))
        return blocks

    def weighted_sum(self, h: int) -> Section:
        a, fm = self.t.head(h, self.b), self.t.fully_masked[self.b, h]
        T, S, dh = self.c.T, self.c.S, self.c.d_head
        blocks: list[Block | None] = [
            Para(self.tr("av.intro", h=h + 1)),
            Display(f"{sup('O', h)} = {sup('A', h)} {sup('V', h)}:\\quad [{T}, {S}] \\times [{S}, {dh}] = [{T}, {dh}]"),
            self.matrix(sup("V", h), a["V"])]
        for r in self.read_rows:
            if not fm[r]:
                blocks += self.output_row(h, r)
        blocks += [self.matrix(sup("O", h), a["O"], query_rows=True),
                   Para(self.tr("av.meaning", T=T, d_head=dh, h=h + 1))]
        return self.section(f"head{h + 1}.av", "av.title", blocks, level=3, h=h + 1)

    def output_row(self, h: int, r: int) -> list[Block | None]:
        """o_r as a mix of the value rows; for a small head also each component's arithmetic."""
        a = self.t.head(h, self.b)
        w, V, o = a["A"][r], a["V"], a["O"][r]
        S, dh = V.shape
        js = list(range(S)) if S <= SMALL or self.o.full else [0, 1, None, S - 1]
        terms = " + ".join("\\cdots" if j is None else f"{self.num(w[j])}\\,{sup('v', h)}_{{{j + 1}}}" for j in js)
        o_r = f"{sup('o', h)}_{{{r + 1}}}"
        blocks: list[Block | None] = [Display(f"{o_r} = {terms}")]
        if S <= SMALL and dh <= 4:
            blocks += [Display(" + ".join(f"{self.num(x)} \\times {self.num(y)}" for x, y in zip(w, V[:, d]))
                               + f" = {self.num(o[d])}") for d in range(dh)]
            blocks.append(self.rounding_slip(w, V, o))
        blocks.append(Display(f"{o_r} = {self.vec(o)}"))
        return blocks

    def rounding_slip(self, w: np.ndarray, V: np.ndarray, o: np.ndarray) -> Note | None:
        """When adding the terms as shown would change the last digit, say why (the document's 0.7518)."""
        p = self.o.precision
        for d in range(V.shape[1]):
            naive = sum(round(float(x), p) * round(float(y), p) for x, y in zip(w, V[:, d]))
            if not same_when_shown(naive, o[d], p):
                return Note(self.tr("av.rounding", naive=self.say(naive), shown=self.say(o[d]),
                                    exact=prose_number(o[d], p + 2)))
        return None

    # ------------------------------------------------------------ after the heads

    def omitted(self) -> Section | None:
        if len(self.heads) == self.c.n_heads:
            return None
        return self.section("heads_omitted", "omitted.title", [Para(self.tr(
            "omitted.body", shown=self.listing(h + 1 for h in self.heads), H=self.c.n_heads))])

    def concat(self) -> Section:
        c = self.c
        parts = ", ".join(sup("O", h) for h in range(min(c.n_heads, MAX_HEADS)))
        if c.n_heads > MAX_HEADS:
            parts += f", \\ldots, {sup('O', c.n_heads - 1)}"
        return self.section("concat", "concat.title", [
            Para(self.tr("concat.intro", H=c.n_heads, d_head=c.d_head, d_model=c.d_model)),
            Display(f"O_{{\\text{{concat}}}} = \\mathrm{{Concat}}({parts})"),
            self.matrix("O_{\\text{concat}}", self.t.O_concat[self.b], query_rows=True)])

    def output(self) -> Section:
        c = self.c
        return self.section("output", "output.title", [
            Para(self.tr("output.intro", d_model=c.d_model)),
            Display("Y = O_{\\text{concat}} W_O" + (" + b_O" if c.b_O is not None else "")),
            Para(self.tr("output.identity")) if "W_O" in c.weights_identity else
            self.matrix("W_O", c.W_O, row_labels=False),
            self.matrix("b_O", c.b_O[None], row_labels=False) if c.b_O is not None else None,
            self.matrix("Y", self.t.Y[self.b], query_rows=True)])

    def dimensions(self) -> Section:
        rows = tuple((self.tr("dim." + row["step"]), "$" + _symbol_tex(row["symbol"]) + "$",
                      "$[" + ", ".join(map(str, row["shape"])) + "]$") for row in self.t.shape_table())
        return self.section("dimensions", "dim.title", [Table(
            header=(self.tr("dim.h_step"), self.tr("dim.h_symbol"), self.tr("dim.h_shape")), rows=rows)])

    def closing(self) -> Section:
        return self.section("closing", "closing.title", [
            Display("o^{(h)}_i = \\sum_{j=1}^{S} A^{(h)}_{ij} \\,v^{(h)}_j, \\qquad "
                    "[T, S] \\times [S, d_h] = [T, d_h]"),
            Para(self.tr("closing.body")), Para(self.tr("closing.multi"))])

    def heatmaps(self) -> tuple[Matrix, ...]:
        """A^(h) of every head (not only the walked-through ones), for the HTML grid."""
        maps = []
        for h in range(self.c.n_heads):
            a = self.t.head(h, self.b)
            maps.append(self.matrix(sup("A", h), a["A"], query_rows=True, col_labels=True, heat=True,
                                    masked=a["S"] == -np.inf, show_shape=False))
        return tuple(maps)


def _symbol_tex(symbol: str) -> str:
    """The trace's plain symbols ("Q^(h) K^(h)T") as LaTeX."""
    s = symbol.replace("^(h)", "^{(h)}").replace("O_concat", "O_{\\text{concat}}")
    s = s.replace("K^{(h)}T", "(K^{(h)})^\\top")
    for w in ("W_Q", "W_K", "W_V", "W_O", "X_k", "X_v"):
        s = s.replace(w, w[:2] + "{" + w[2:] + "}")
    return s
