"""Trace -> explanation: the worked example's steps, one method per step, in the core's order.

Each step method reads its numbers from the trace (a head's arrays through
`Trace.head`), takes its words from the zh / en catalogs, and returns a
`Section`, or None when the step does not apply to this configuration (RoPE
without rotary embedding, the cache without a cache, ...).  A new kind of
attention adds one step method and its catalog texts, and names the method at
its place in `build` or `head_steps`; no other step needs to know.
"""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from .base import EDGE, MAX_HEADS, MAX_ROWS, sup
from .blocks import Block, Display, Items, Matrix, Note, Para, Section, Table
from .modern import ModernSteps
from .numbers import prose_number, same_when_shown

SMALL = 6           # per-component arithmetic only when S and d_v are this small


class Builder(ModernSteps):
    """The sections of one explanation.  Every number is read from the trace."""

    def build(self, appendix: Iterable[Section] = ()) -> list[Section]:
        """The whole walk-through; appendix (the tiled walk-through) goes after the heads, before the concat."""
        sections = [self.setup(), self.projections(), self.split(), self.kv_sharing(), self.rope(), self.cache(),
                    self.masks(), self.alibi_intro()]
        for h in self.heads:
            sections += self.head_steps(h)
        sections += [self.omitted(), *appendix, self.concat(), self.output(), self.dimensions(), self.closing()]
        return [s for s in sections if s is not None]

    def head_steps(self, h: int) -> list[Section | None]:
        """One head's steps in the core's order."""
        steps: tuple[Callable[[int], Section | None], ...] = (
            self.head_intro, self.scores, self.alibi, self.scale, self.softmax, self.weighted_sum)
        return [step(h) for step in steps]

    # ------------------------------------------------------------ symbols and sizes

    def kv(self, name: str, h: int) -> str:
        """K or V as query head h reads it: its key/value head's symbol (the same number without GQA)."""
        return sup(name, self.t.group(h))

    @property
    def seed_layout(self) -> bool:
        """The worked example's layer: X split evenly into H heads of d_h = d_model / H for Q, K and V alike."""
        c = self.c
        return c.X is not None and c.G == c.n_heads and c.d_k == c.d_v and c.n_heads * c.d_k == c.d_model

    @property
    def dk(self) -> str:
        """The symbol of a head's query/key width: d_h as in the worked example when values are as wide."""
        return "d_h" if self.c.d_k == self.c.d_v else "d_k"

    @property
    def dv(self) -> str:
        return "d_h" if self.c.d_k == self.c.d_v else "d_v"

    def scaled(self, h: int, width: str) -> str:
        """Q^(h) K^(g)^T with the configuration's scale, in LaTeX; width is d_k's symbol or its value."""
        qk = f"{sup('Q', h)} ({self.kv('K', h)})^\\top"
        rule = self.c.scale_rule
        if rule == "1/sqrt(d_k)":
            return f"\\frac{{{qk}}}{{\\sqrt{{{width}}}}}"
        if rule == "1/d_k":
            return f"\\frac{{{qk}}}{{{width}}}"
        if rule == "none":
            return qk
        return f"{self.num(self.scale_value())} \\cdot {qk}"

    # ------------------------------------------------------------ before the heads

    def setup(self) -> Section:
        c = self.c
        sizes = [self.tr("setup.B", B=c.B), self.tr("setup.T", T=c.T)]
        if c.X is not None:
            sizes.append(self.tr("setup.d_model", d_model=c.d_model))
        sizes.append(self.tr("setup.H", H=c.n_heads))
        if c.G < c.n_heads:
            sizes.append(self.tr("setup.G", G=c.G, n_rep=c.n_heads // c.G))
        if c.d_k == c.d_v:
            sizes.append(self.tr("setup.d_head", d_head=c.d_k))
        else:
            sizes += [self.tr("setup.d_k", d_k=c.d_k), self.tr("setup.d_v", d_v=c.d_v)]
        if c.cache_K is not None:
            sizes.append(self.tr("setup.S_cache", S=c.S, S_past=c.S_past, S_new=c.S_new))
        elif c.key is not None or (c.given_qkv and c.S != c.T):
            sizes.append(self.tr("setup.S", S=c.S))
        if c.X is None or c.d_out != c.d_model:
            sizes.append(self.tr("setup.d_out", d_out=c.d_out))
        even = c.X is not None and c.d_k == c.d_v and c.n_heads * c.d_k == c.d_model     # d_h = d_model / H
        layout: list[Block] = [
            Display(f"d_{{\\text{{model}}}} = H \\cdot d_h = {c.n_heads} \\times {c.d_k} = {c.d_model}"),
            Para(self.tr("setup.why_split"))] if even else \
            [Para(self.tr("setup.widths" if c.d_k != c.d_v else "setup.widths_same", d_k=c.d_k, d_v=c.d_v))] \
            if c.X is not None else []
        return self.section("setup", "setup.title", [
            Para(self.tr("setup.intro")), Items(tuple(sizes)), *layout,
            Note(self.tr("setup.batch", b=self.b + 1, B=c.B)) if c.B > 1 else None,
            Note(self.tr("setup.positions" if c.T > 1 else "setup.position_one", T=c.T, S=c.S,
                         tokens=self.span(self.qn(0), self.qn(c.T - 1)))) if self.q0 else None,
            *self.inputs()])

    def inputs(self) -> list[Block]:
        """X (or Q, K and V when they are given), and the key/value sequence of cross-attention."""
        c, b = self.c, self.b
        if c.given_qkv:
            return [Para(self.tr("setup.qkv_given")), self.matrix("Q", c.Q_in[b], query_rows=True),
                    self.matrix("K", c.K_in[b]), self.matrix("V", c.V_in[b])]
        X = c.X[b]
        blocks: list[Block] = [Para(self.tr("setup.X_rows", T=c.T, d_model=c.d_model)),
                               self.matrix("X", X, query_rows=True)]
        if len(self.rows) <= MAX_ROWS and c.d_model <= MAX_ROWS:
            blocks.append(Items(tuple(f"$x_{{{self.qn(i)}}} = {self.vec(X[i])}$" for i in self.rows)))
        if c.key is not None:
            blocks += [Para(self.tr("setup.cross", S=c.S_new)), self.matrix("X_k", c.key[b])]
            if not np.array_equal(c.key, c.value):
                blocks.append(self.matrix("X_v", c.value[b]))
        return blocks

    def projections(self) -> Section | None:
        c, t, b = self.c, self.t, self.b
        if c.given_qkv:
            return None
        src, srcv = ("X", "X") if c.key is None else ("X_k", "X_v")
        blocks: list[Block] = [Para(self.tr("proj.intro")),
                               Display(f"Q = X W_Q, \\quad K = {src} W_K, \\quad V = {srcv} W_V")]
        ident = set(c.weights_identity)
        if {"W_Q", "W_K", "W_V"} <= ident:
            blocks.append(Para(self.tr("proj.identity", d_model=c.d_model)))
        if c.weights_per_head:
            blocks.append(Para(self.tr("proj.per_head", names=self.listing(f"${n}$" for n in c.weights_per_head))))
        blocks += [self.matrix(name, getattr(c, name), rows=None)
                   for name in ("W_Q", "W_K", "W_V") if name not in ident]
        for name in ("b_Q", "b_K", "b_V"):
            if getattr(c, name) is not None:
                blocks += [Para(self.tr("proj.bias", name=f"${name}$")),
                           self.matrix(name, getattr(c, name)[None], rows=None)]
        if t.Q.shape == t.K.shape == t.V.shape and np.array_equal(t.Q, t.K) and np.array_equal(t.K, t.V) \
                and np.array_equal(t.Q[b], c.X[b]):
            blocks += [Para(self.tr("proj.all_equal_X")), self.matrix("Q = K = V", t.Q[b], query_rows=True)]
        else:
            blocks += [self.matrix("Q", t.Q[b], query_rows=True), self.matrix("K", t.K[b]),
                       self.matrix("V", t.V[b])]
        return self.section("projections", "proj.title", blocks)

    def split(self) -> Section:
        c, t, b = self.c, self.t, self.b
        dk, dv = c.d_k, c.d_v
        if self.seed_layout:
            intro = self.tr("split.intro", H=c.n_heads, d_head=dk)
        else:
            intro = self.tr("split.intro_widths", H=c.n_heads, G=c.G, d_k=dk, d_v=dv)
        shown = [h for h in range(c.n_heads) if h in self.heads or c.n_heads <= MAX_HEADS]
        cols = [self.tr("split.cols", h=h + 1, first=h * dk + 1, last=(h + 1) * dk) for h in shown]
        if not self.seed_layout:
            cols += [self.tr("split.kv_cols", g=g + 1, first=g * dk + 1, last=(g + 1) * dk, first_v=g * dv + 1,
                             last_v=(g + 1) * dv) for g in sorted({t.group(h) for h in shown})]
        blocks: list[Block] = [Para(intro), Items(tuple(cols))]
        groups_done: set[int] = set()
        for h in self.heads:
            # the split itself, before RoPE and the cache: Trace.head gives what the head attends over instead
            g = t.group(h)
            Q, K, V = t.Qh[b, h], t.Kh[b, g], t.Vh[b, g]
            if Q.shape == K.shape == V.shape and np.array_equal(Q, K) and np.array_equal(K, V):
                blocks.append(self.matrix(f"{sup('Q', h)} = {self.new_kv('K', g)} = {self.new_kv('V', g)}", Q,
                                          query_rows=True))
            else:
                blocks.append(self.matrix(sup("Q", h), Q, query_rows=True))
                if g not in groups_done:
                    blocks += [self.matrix(self.new_kv("K", g), K), self.matrix(self.new_kv("V", g), V)]
            groups_done.add(g)
        blocks.append(Para(self.tr("split.rows_cols", d_head=dk)))
        return self.section("split", "split.title", blocks)

    def has_mask(self) -> bool:
        c = self.c
        return (c.causal != "none" or c.key_lengths is not None or c.mask is not None or c.bias is not None
                or c.window is not None)

    def masks(self) -> Section | None:
        c, b = self.c, self.b
        if not self.has_mask():
            return None
        items = []
        if c.causal != "none" and self.q0:          # queries numbered by position: query i sees keys j <= i
            items.append(self.tr("mask.causal_positions"))
        elif c.causal != "none":
            items.append(self.tr(f"mask.causal_{c.causal}"))
            if c.T != c.S:
                items.append(self.tr("mask.causal_offset", T=c.T, S=c.S, offset=c.offset))
        if c.window is not None:
            items.append(self.tr("mask.window_causal" if c.causal != "none" else "mask.window", W=c.window))
            if c.offset and c.causal == "none" and not self.q0:
                items.append(self.tr("mask.window_offset", offset=c.offset))
        if c.key_lengths is not None:
            items.append(self.tr("mask.key_lengths", lengths=self.listing(c.key_lengths.tolist()),
                                 L=int(c.key_lengths[b]), b=b + 1))
        if c.mask is not None:
            items.append(self.tr("mask.bool"))
        if c.bias is not None:
            items.append(self.tr("mask.bias"))
        rows = sorted({self.qn(int(i)) for i in np.argwhere(self.t.fully_masked[b])[:, 1]})
        return self.section("masks", "mask.title", [
            Para(self.tr("mask.intro")), Items(tuple(items)), Para(self.tr("mask.effect")),
            Note(self.tr("mask.window_band", W=c.window)) if c.window is not None else None,
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
        g, c = self.t.group(h), self.c
        intro = self.tr("head.intro_shared", h=h + 1, g=g + 1, heads=self.sharing(g)) if c.G < c.n_heads else \
            self.tr("head.intro", h=h + 1, g=g + 1)
        return self.section(f"head{h + 1}", "head.title", [
            Para(intro),
            Display(f"{sup('O', h)} = \\mathrm{{softmax}}\\left({self.scaled(h, self.dk)}\\right) {self.kv('V', h)}")],
            h=h + 1)

    def scores(self, h: int) -> Section:
        QKt = self.t.head(h, self.b)["QKt"]
        T, S, dk = self.c.T, self.c.S, self.c.d_k
        i, keys = self.read_rows[0], self.some_keys(S)
        lhs = f"{sup('Q', h)} ({self.kv('K', h)})^\\top"
        rope = Note(self.tr("scores.rope", h=h + 1, g=self.t.group(h) + 1)) if self.c.rope is not None else None
        return self.section(f"head{h + 1}.scores", "scores.title", [
            Para(self.tr("scores.intro", h=h + 1, g=self.t.group(h) + 1)), rope,
            Display(f"{lhs}:\\quad [{T}, {dk}] \\times [{dk}, {S}] = [{T}, {S}]"),
            self.matrix(lhs, QKt, query_rows=True, cols="keys"),
            Para(self.tr("scores.meaning", T=T, S=S)),
            Para(self.tr("scores.read_row", i=self.qn(i), row=self.say_vec(QKt[i, keys]) if S <= MAX_ROWS else "")),
            Items(tuple(self.tr("scores.pair", i=self.qn(i), j=j + 1, value=self.say(QKt[i, j])) for j in keys))],
            level=3, h=h + 1)

    def scale(self, h: int) -> Section:
        c, S = self.c, self.t.head(h, self.b)["S"]
        dk, rule = c.d_k, c.scale_rule
        intro = {"1/sqrt(d_k)": "scale.intro", "1/d_k": "scale.1_d_k", "none": "scale.none"}.get(rule, "scale.custom")
        extra = (" + \\text{bias}" if c.bias is not None else "") + \
            (f" + {sup('B', h)}" if self.t.position_bias is not None else "")
        return self.section(f"head{h + 1}.scale", "scale.title", [
            Para(self.tr(intro, dk=self.dk, d_head=dk, d_k=dk, sqrt=self.say(self.root(dk)),
                         scale=self.say(self.scale_value()))),
            Display(f"{sup('S', h)} = {self.scaled(h, str(dk))}{extra}"),
            Para(self.tr("scale.masked")) if self.has_mask() else None,
            self.matrix(sup("S", h), S, query_rows=True, cols="keys", masked=S == -np.inf)],
            level=3, h=h + 1)

    def softmax(self, h: int) -> Section:
        a = self.t.head(h, self.b)
        blocks: list[Block | None] = [
            Para(self.tr("softmax.intro", h=h + 1)),
            Display(f"{sup('A', h)}_{{ij}} = \\frac{{e^{{S_{{ij}} - m_i}}}}{{\\sum_{{j'}} e^{{S_{{ij'}} - m_i}}}}, "
                    "\\quad m_i = \\max_j S_{ij}"),
            Para(self.tr("softmax.stable")), *self.softmax_substeps(h),
            self.matrix(sup("A", h), a["A"], query_rows=True, cols="keys", heat=True, masked=a["S"] == -np.inf),
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
        return [Para(self.tr("softmax.steps_row", i=self.qn(r))), Items((
            f"$m_{{{self.qn(r)}}} = {self.num(a['row_max'][r])}$",
            f"$e^{{S - m}} = {exps}$",
            f"$\\sum = {self.num(a['row_sum'][r])}$"))]

    def read_weights(self, h: int, r: int) -> list[Block]:
        """Row r of A^(h) in words: every visible key's weight when the row is short, else the top three."""
        a = self.t.head(h, self.b)
        A, visible = a["A"][r], a["S"][r] > -np.inf
        if self.t.fully_masked[self.b, h, r]:
            return [Note(self.tr("softmax.fully_masked_row", i=self.qn(r)))]
        keys = np.flatnonzero(visible)
        if self.c.S <= SMALL:
            blocks: list[Block] = [Para(self.tr("softmax.read_row", i=self.qn(r), h=h + 1)), Items(tuple(
                self.tr("softmax.weight", i=self.qn(r), j=j + 1, w=self.say(A[j])) for j in keys))]
        else:
            top = keys[np.argsort(-A[keys], kind="stable")[:3]]
            blocks = [Para(self.tr("softmax.top", i=self.qn(r), h=h + 1, top=self.listing(
                self.tr("softmax.top_item", j=j + 1, w=self.say(A[j])) for j in top)))]
        if len(keys) > 1 and np.ptp(a["S"][r, keys]) == 0:
            blocks.append(Note(self.tr("softmax.uniform", i=self.qn(r), k=len(keys), w=self.say(self.ratio(1, len(keys))))))
        return blocks

    def weighted_sum(self, h: int) -> Section:
        a, fm = self.t.head(h, self.b), self.t.fully_masked[self.b, h]
        T, S, dv = self.c.T, self.c.S, self.c.d_v
        blocks: list[Block | None] = [
            Para(self.tr("av.intro", h=h + 1, g=self.t.group(h) + 1)),
            Display(f"{sup('O', h)} = {sup('A', h)} {self.kv('V', h)}:"
                    f"\\quad [{T}, {S}] \\times [{S}, {dv}] = [{T}, {dv}]"),
            self.matrix(self.kv("V", h), a["V"], rows="keys")]
        for r in self.read_rows:
            if not fm[r]:
                blocks += self.output_row(h, r)
        blocks += [self.matrix(sup("O", h), a["O"], query_rows=True),
                   Para(self.tr("av.meaning", T=T, d_head=dv, h=h + 1))]
        return self.section(f"head{h + 1}.av", "av.title", blocks, level=3, h=h + 1)

    def output_row(self, h: int, r: int) -> list[Block | None]:
        """o_r as a mix of the value rows; for a small head also each component's arithmetic."""
        a = self.t.head(h, self.b)
        w, V, o = a["A"][r], a["V"], a["O"][r]
        S, dv = V.shape
        v = self.kv("v", h)
        js = list(range(S)) if S <= SMALL or self.o.full else [0, 1, None, S - 1]
        terms = " + ".join("\\cdots" if j is None else f"{self.num(w[j])}\\,{v}_{{{j + 1}}}" for j in js)
        o_r = f"{sup('o', h)}_{{{self.qn(r)}}}"
        blocks: list[Block | None] = [Display(f"{o_r} = {terms}")]
        if S <= SMALL and dv <= 4:
            blocks += [Display(" + ".join(f"{self.num(x)} \\times {self.num(y)}" for x, y in zip(w, V[:, d]))
                               + f" = {self.num(o[d])}") for d in range(dv)]
            blocks.append(self.rounding_slip(w, V, o))
        blocks.append(Display(f"{o_r} = {self.vec(o)}"))
        return blocks

    def rounding_slip(self, w: np.ndarray, V: np.ndarray, o: np.ndarray) -> Note | None:
        """When adding the terms as shown would change the last digit, say why (the document's 0.7518)."""
        p = self.o.precision
        for d in range(V.shape[1]):
            naive = sum(self.rounded(x, p) * self.rounded(y, p) for x, y in zip(w, V[:, d]))
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
        width = c.n_heads * c.d_v
        intro = self.tr("concat.intro", H=c.n_heads, d_head=c.d_v, d_model=c.d_model) if width == c.d_model else \
            self.tr("concat.intro_width", H=c.n_heads, d_head=c.d_v, width=width)
        return self.section("concat", "concat.title", [
            Para(intro), Display(f"O_{{\\text{{concat}}}} = \\mathrm{{Concat}}({parts})"),
            self.matrix("O_{\\text{concat}}", self.t.O_concat[self.b], query_rows=True)])

    def output(self) -> Section:
        c = self.c
        if c.W_O is None:
            blocks: list[Block | None] = [Para(self.tr("output.none")), Display("Y = O_{\\text{concat}}")]
        else:
            blocks = [
                Para(self.tr("output.intro", rows=c.W_O.shape[0], d_out=c.d_out)),
                Display("Y = O_{\\text{concat}} W_O" + (" + b_O" if c.b_O is not None else "")),
                Para(self.tr("output.identity")) if "W_O" in c.weights_identity else
                self.matrix("W_O", c.W_O, rows=None),
                self.matrix("b_O", c.b_O[None], rows=None) if c.b_O is not None else None]
        return self.section("output", "output.title", blocks + [self.matrix("Y", self.t.Y[self.b], query_rows=True)])

    def dimensions(self) -> Section:
        rows = tuple((self.tr("dim." + row["step"]), "$" + _symbol_tex(row["symbol"]) + "$",
                      "$[" + ", ".join(map(str, row["shape"])) + "]$") for row in self.t.shape_table())
        return self.section("dimensions", "dim.title", [Table(
            header=(self.tr("dim.h_step"), self.tr("dim.h_symbol"), self.tr("dim.h_shape")), rows=rows)])

    def closing(self) -> Section:
        dv = self.dv
        return self.section("closing", "closing.title", [
            Display(f"o^{{(h)}}_i = \\sum_{{j=1}}^{{S}} A^{{(h)}}_{{ij}} \\,v^{{(h)}}_j, \\qquad "
                    f"[T, S] \\times [S, {dv}] = [T, {dv}]"),
            Para(self.tr("closing.body")),
            Para(self.tr("closing.multi", dk=self.dk) if self.c.W_O is not None else self.tr("closing.multi_none"))])

    def heatmaps(self) -> tuple[Matrix, ...]:
        """A^(h) of every head (not only the walked-through ones), for the HTML grid."""
        maps = []
        for h in range(self.c.n_heads):
            a = self.t.head(h, self.b)
            maps.append(self.matrix(sup("A", h), a["A"], query_rows=True, cols="keys", heat=True,
                                    masked=a["S"] == -np.inf, show_shape=False))
        return tuple(maps)


def _symbol_tex(symbol: str) -> str:
    """The trace's plain symbols ("Q^(h) K^(g)T", "K_cache^(g)", "RoPE(Q^(h))") as LaTeX."""
    s = symbol.replace("^(h)", "^{(h)}").replace("^(g)", "^{(g)}").replace("O_concat", "O_{\\text{concat}}")
    s = s.replace("K^{(h)}T", "(K^{(h)})^\\top").replace("K^{(g)}T", "(K^{(g)})^\\top")
    s = s.replace("RoPE(", "\\mathrm{RoPE}(").replace("_cache", "_{\\text{cache}}")
    s = s.replace(" with cache", "\\ \\text{with cache}")
    for w in ("W_Q", "W_K", "W_V", "W_O", "X_k", "X_v"):
        s = s.replace(w, w[:2] + "{" + w[2:] + "}")
    return s
