"""The backward pass, step by step: the trace's gradients (`Trace.grads`) in the reverse order of the forward.

Each step is one method returning a `Section` (or None when the configuration
does not have it), in the order `BackwardSteps.sections` lists them.  Every
number is read from `mha.backward.LayerGrads`; the finite-difference check
reads `mha.backward.nudge`, which recomputes L with the core.
"""

from __future__ import annotations

import numpy as np

from .base import EDGE, MAX_ROWS, Writer, sup
from .blocks import Block, Display, Items, Matrix, Note, Para, Section, Table
from .numbers import prose_number

FD_DIGITS = 10      # decimals of L and of the finite-difference slope: the nudge moves L in its 7th digit


class BackwardSteps(Writer):
    """The sections of the backward pass, after the forward pass's."""

    def sections(self) -> list[Section]:
        if self.t.grads is None:
            return []
        steps = [self.intro(), self.output(), self.split_back()]
        for h in self.heads:
            steps += [self.weighted_sum_back(h), self.softmax_back(h), self.scores_back(h)]
        if self.o.tiled_block:
            from .tiled_backward import TiledBackward
            steps += TiledBackward(self.t, self.o).sections()
        steps += [self.kv_back(), self.merge_back(), self.projections_back(), self.inputs_back(),
                  self.nudge_check(), self.grad_shapes()]
        return [s for s in steps if s is not None]

    # ------------------------------------------------------------ helpers

    @property
    def g(self):
        return self.t.grads

    def product(self, lhs: str, a: str, b: str, sa: tuple[int, int], sb: tuple[int, int]) -> Display:
        """lhs = a b with its shape arithmetic: [r, k] × [k, c] = [r, c]."""
        return Display(f"{lhs} = {a}\\, {b}:\\quad [{sa[0]}, {sa[1]}] \\times [{sb[0]}, {sb[1]}] = [{sa[0]}, {sb[1]}]")

    def entry_sum(self, lhs: str, xs: np.ndarray, ys: np.ndarray, value: float) -> Display:
        """One entry written out as its sum of products (elided in the middle when long)."""
        n = len(xs)
        idx = list(range(n)) if n <= MAX_ROWS or self.o.full else list(range(EDGE)) + [None, n - 1]
        terms = " + ".join("\\cdots" if k is None else f"{self.signed(xs[k])} \\times {self.signed(ys[k])}"
                           for k in idx)
        return Display(f"{lhs} = {terms} = {self.num(value)}")

    def signed(self, x: float) -> str:
        """A factor inside a written-out sum: negative numbers in parentheses, (-0.5) × 2."""
        text = self.num(x)
        return f"({text})" if text.startswith("-") else text

    def column(self, symbol: str, v: np.ndarray, **kw) -> Matrix:
        """A per-row vector (D, lse) as a column, one row per query."""
        return self.matrix(symbol, v[:, None], query_rows=True, **kw)

    def batch_note(self) -> Note | None:
        return Note(self.tr("bw.batch_sum", B=self.c.B)) if self.c.B > 1 else None

    def live_row(self, h: int) -> int | None:
        """The first read row of head h that sees two keys or more (one key alone gets weight 1 whatever its
        score: its softmax has no gradient to show), else the first that sees one, else None."""
        seen = (self.t.S[self.b, h] > -np.inf).sum(axis=-1)
        return next((r for r in self.read_rows if seen[r] >= 2), next((r for r in self.read_rows if seen[r]), None))

    # ------------------------------------------------------------ the loss and dY

    def intro(self) -> Section:
        g, b = self.g, self.b
        rule = {"sum": "bw.loss_sum", "target": "bw.loss_target", "dY": "bw.loss_dY"}[g.loss]
        blocks: list[Block | None] = [Para(self.tr("bw.intro")), Para(self.tr(rule, L=self.say(g.L)))]
        if g.loss == "target":
            blocks.append(self.matrix("\\text{target}", self.c.backward.array[b], query_rows=True))
        blocks += [self.matrix("dY", g.dY[b], query_rows=True), Para(self.tr("bw.order"))]
        return self.section("backward", "bw.title", blocks)

    def output(self) -> Section:
        c, g, b = self.c, self.g, self.b
        T, width = c.T, c.n_heads * c.d_v
        if c.W_O is None:
            blocks: list[Block | None] = [Para(self.tr("bw.output_none")),
                                          self.matrix("dO_{\\text{concat}}", g.dO_concat[b], query_rows=True)]
            return self.section("backward.output", "bw.output_title", blocks)
        i = self.read_rows[0]
        blocks = [
            Para(self.tr("bw.output_intro")),
            self.product("dO_{\\text{concat}}", "dY", "W_O^{\\top}", (T, c.d_out), (c.d_out, width)),
            self.product("dW_O", "O_{\\text{concat}}^{\\top}", "dY", (width, T), (T, c.d_out)),
            Para(self.tr("bw.output_entry")),
            self.entry_sum("dW_O[1,1]" if c.B == 1 else "(O_{\\text{concat}}^{\\top} dY)[1,1]",
                           self.t.O_concat[b, :, 0], g.dY[b, :, 0], float(self.t.O_concat[b, :, 0] @ g.dY[b, :, 0])),
            self.entry_sum(f"dO_{{\\text{{concat}}}}[{self.qn(i)},1]", g.dY[b, i], c.W_O[0], g.dO_concat[b, i, 0]),
            self.batch_note(),
            self.matrix("dW_O", g.dW_O, rows=None)]
        if g.db_O is not None:
            blocks += [Para(self.tr("bw.bias", name="$b_O$", d="$dY$")), self.matrix("db_O", g.db_O[None], rows=None)]
        blocks.append(self.matrix("dO_{\\text{concat}}", g.dO_concat[b], query_rows=True))
        return self.section("backward.output", "bw.output_title", blocks)

    def split_back(self) -> Section:
        c, g, b = self.c, self.g, self.b
        blocks: list[Block] = [Para(self.tr("bw.split", d_v=c.d_v))]
        blocks += [self.matrix(sup("dO", h), g.dO[b, h], query_rows=True) for h in self.heads]
        return self.section("backward.split", "bw.split_title", blocks)

    # ------------------------------------------------------------ one head

    def share(self, name: str, h: int) -> str:
        """Head h's part of the gradient of its key/value head: dK^(g) itself without GQA, dK^(g)_h with it."""
        g = self.t.group(h)
        return sup(name, g) + (f"_{{{h + 1}}}" if self.c.G < self.c.n_heads else "")

    def weighted_sum_back(self, h: int) -> Section:
        c, g, b, a = self.c, self.g, self.b, self.t.head(h, self.b)
        T, S, dv = c.T, c.S, c.d_v
        i = self.read_rows[0]
        blocks: list[Block | None] = [
            Para(self.tr("bw.av_intro", h=h + 1)),
            self.product(sup("dA", h), sup("dO", h), f"({self.kv_sym('V', h)})^{{\\top}}", (T, dv), (dv, S)),
            self.product(self.share("dV", h), f"({sup('A', h)})^{{\\top}}", sup("dO", h), (S, T), (T, dv)),
            Para(self.tr("bw.av_entry", i=self.qn(i))),
            self.entry_sum(f"{sup('dA', h)}_{{{self.qn(i)},1}}", g.dO[b, h, i], a["V"][0], g.dA[b, h, i, 0]),
            self.matrix(sup("dA", h), g.dA[b, h], query_rows=True, cols="keys"),
            Para(self.tr("bw.av_share_gqa", g=self.t.group(h) + 1, heads=self.sharing(h)))
            if c.G < c.n_heads else None,
            self.matrix(self.share("dV", h), g.dV_share[b, h], rows="keys")]
        return self.section(f"backward.head{h + 1}.av", "bw.av_title", blocks, level=3, h=h + 1)

    @staticmethod
    def heads_list(name: str, n: int) -> str:
        """dQ^(1) dQ^(2) ... side by side, elided past three heads."""
        shown = [sup(name, h) for h in range(n)] if n <= 3 else [sup(name, 0), "\\cdots", sup(name, n - 1)]
        return "\\ ".join(shown)

    def kv_sym(self, name: str, h: int) -> str:
        return sup(name, self.t.group(h))

    def sharing(self, h: int) -> str:
        g = self.t.group(h)
        return self.listing(k + 1 for k in range(self.c.n_heads) if self.t.group(k) == g)

    def softmax_back(self, h: int) -> Section:
        c, g, b, a = self.c, self.g, self.b, self.t.head(h, self.b)
        blocks: list[Block | None] = [
            Para(self.tr("bw.softmax_intro")),
            Display("\\frac{\\partial A_{ij}}{\\partial S_{ik}} = A_{ij}\\,(\\delta_{jk} - A_{ik}),"
                    "\\qquad J_i = \\operatorname{diag}(a_i) - a_i a_i^{\\top}")]
        r = self.live_row(h)
        visible = a["S"] > -np.inf
        if r is not None:
            A_r = a["A"][r]
            J = np.diag(A_r) - np.outer(A_r, A_r)
            row = f"J_{{{self.qn(r)}}}"
            blocks += [Para(self.tr("bw.jacobian_row", i=self.qn(r), h=h + 1)),
                       self.matrix(row, J, rows="keys", cols="keys",
                                   masked=~(visible[r][:, None] & visible[r][None, :])),
                       Para(self.tr("bw.jacobian_product", i=self.qn(r))),
                       Display(f"{row}\\, (d{sup('A', h)}_{{{self.qn(r)},:}})^{{\\top}} = "
                               f"{self.vec(J @ g.dA[b, h, r])}^{{\\top}}")]
        blocks += [Para(self.tr("bw.softmax_reduce")),
                   Display(f"D_i = \\sum_k A_{{ik}}\\, dA_{{ik}} = o_i \\cdot do_i, \\qquad "
                           f"{sup('dS', h)} = {sup('A', h)} \\odot ({sup('dA', h)} - D)"),
                   self.column(sup("D", h), g.D[b, h])]
        if r is not None:
            j = int(np.flatnonzero(visible[r])[0])
            blocks += [Para(self.tr("bw.softmax_entry", i=self.qn(r), j=j + 1)),
                       Display(f"{sup('dS', h)}_{{{self.qn(r)},{j + 1}}} = A_{{{self.qn(r)},{j + 1}}}\\,"
                               f"(dA_{{{self.qn(r)},{j + 1}}} - D_{{{self.qn(r)}}}) = {self.signed(a['A'][r, j])} "
                               f"\\times ({self.num(g.dA[b, h, r, j])} - {self.signed(g.D[b, h, r])}) = "
                               f"{self.num(g.dS[b, h, r, j])}")]
        blocks.append(self.matrix(sup("dS", h), g.dS[b, h], query_rows=True, cols="keys", masked=~visible))
        if not visible.all():
            blocks.append(Note(self.tr("bw.masked")))
        return self.section(f"backward.head{h + 1}.softmax", "bw.softmax_title", blocks, level=3, h=h + 1)

    def scores_back(self, h: int) -> Section:
        c, g, b, a = self.c, self.g, self.b, self.t.head(h, self.b)
        T, S, dk = c.T, c.S, c.d_k
        rule = c.scale_rule
        scale = {"1/sqrt(d_k)": f"1/\\sqrt{{{dk}}}", "1/d_k": f"1/{dk}", "none": "1"}.get(
            rule, self.num(c.effective_scale))
        qkt = f"d({sup('Q', h)} ({self.kv_sym('K', h)})^{{\\top}})"
        Q_name = sup("Q", h) if c.rope is None else f"\\mathrm{{RoPE}}({sup('Q', h)})"
        dQ_name = "d" + Q_name
        dK_name = self.share("dK", h) if c.rope is None else \
            f"d\\mathrm{{RoPE}}({self.kv_sym('K', h)})" + (f"_{{{h + 1}}}" if c.G < c.n_heads else "")
        K_name = self.kv_sym("K", h) if c.rope is None else f"\\mathrm{{RoPE}}({self.kv_sym('K', h)})"
        visible = a["S"] > -np.inf
        i = self.live_row(h) if self.live_row(h) is not None else self.read_rows[0]
        blocks: list[Block | None] = [
            Para(self.tr("bw.scale_none" if rule == "none" else "bw.scale", scale=self.say(c.effective_scale))),
            Display(f"{qkt} = {scale} \\cdot {sup('dS', h)}"),
            Note(self.tr("bw.bias_constant")) if c.bias is not None or c.alibi_rule is not None else None,
            self.matrix(qkt, g.dQKt[b, h], query_rows=True, cols="keys", masked=~visible),
            Para(self.tr("bw.scores_intro")),
            self.product(dQ_name, qkt, K_name, (T, S), (S, dk)),
            self.product(dK_name, f"({qkt})^{{\\top}}", Q_name, (S, T), (T, dk)),
            Para(self.tr("bw.scores_entry", i=self.qn(i))),
            self.entry_sum(f"{dQ_name}_{{{self.qn(i)},1}}", g.dQKt[b, h, i], a["K"][:, 0],
                           (g.dQh if g.dQh_rope is None else g.dQh_rope)[b, h, i, 0]),
            self.matrix(dQ_name, (g.dQh if g.dQh_rope is None else g.dQh_rope)[b, h], query_rows=True),
            self.matrix(dK_name, g.dK_share[b, h], rows="keys")]
        if c.rope is not None:
            blocks += [Para(self.tr("bw.rope_back")),
                       Display("R(p\\theta)^{\\top} = R(-p\\theta)"),
                       self.matrix(sup("dQ", h), g.dQh[b, h], query_rows=True)]
        return self.section(f"backward.head{h + 1}.scores", "bw.scores_title", blocks, level=3, h=h + 1)

    # ------------------------------------------------------------ after the heads

    def kv_back(self) -> Section | None:
        """GQA's sums, the cache's own rows and RoPE's turn back for the keys; None when there is none of them."""
        c, g, b = self.c, self.g, self.b
        if c.G == c.n_heads and c.cache_K is None and c.rope is None:
            return None
        blocks: list[Block | None] = []
        groups = sorted({self.t.group(h) for h in self.heads})
        if c.G < c.n_heads:
            blocks.append(Para(self.tr("bw.gqa_sum")))
            blocks.append(Items(tuple(self.tr("bw.gqa_group", g=k + 1, heads=self.listing(
                h + 1 for h in range(c.n_heads) if self.t.group(h) == k)) for k in groups)))
        K_all = "dK" if c.rope is None else "d\\mathrm{RoPE}(K)"
        for k in groups:
            blocks += [self.matrix(sup(K_all, k), g.dK_all[b, k], rows="keys"),
                       self.matrix(sup("dV", k), g.dV_all[b, k], rows="keys")]
        if c.cache_K is not None:
            blocks += [Para(self.tr("bw.cache", S_past=c.S_past, S_new=c.S_new))]
            for k in groups:
                blocks += [self.matrix(sup("dK", k) + "_{\\text{cache}}", g.dcache_K[b, k], rows="past_keys"),
                           self.matrix(sup("dV", k) + "_{\\text{cache}}", g.dcache_V[b, k], rows="past_keys")]
        if c.rope is not None:
            blocks.append(Para(self.tr("bw.rope_keys")))
        for k in groups:
            if c.cache_K is not None or c.rope is not None:
                new = "_{\\text{new}}" if c.cache_K is not None else ""
                blocks += [self.matrix(sup("dK", k) + new, g.dKh[b, k]), self.matrix(sup("dV", k) + new, g.dVh[b, k])]
        return self.section("backward.kv", "bw.kv_title", blocks)

    def merge_back(self) -> Section:
        c, g, b = self.c, self.g, self.b
        blocks: list[Block | None] = [
            Para(self.tr("bw.merge", H=c.n_heads, G=c.G)),
            Display(f"dQ = [{self.heads_list('dQ', c.n_heads)}], \\quad dK = [{self.heads_list('dK', c.G)}], "
                    f"\\quad dV = [{self.heads_list('dV', c.G)}]"),
            Note(self.tr("bw.qkv_given")) if c.given_qkv else None,
            self.matrix("dQ", g.dQ[b], query_rows=True), self.matrix("dK", g.dK[b]), self.matrix("dV", g.dV[b])]
        return self.section("backward.merge", "bw.merge_title", blocks)

    def projections_back(self) -> Section | None:
        c, g, b = self.c, self.g, self.b
        if c.given_qkv:
            return None
        src_k, src_v = ("X", "X") if c.key is None else ("X_k", "X_v")
        T, S = c.T, c.S_new
        blocks: list[Block | None] = [
            Para(self.tr("bw.proj_intro")),
            self.product("dW_Q", "X^{\\top}", "dQ", (c.d_model, T), (T, c.W_Q.shape[1])),
            self.product("dW_K", f"{src_k}^{{\\top}}", "dK", (c.W_K.shape[0], S), (S, c.W_K.shape[1])),
            self.product("dW_V", f"{src_v}^{{\\top}}", "dV", (c.W_V.shape[0], S), (S, c.W_V.shape[1])),
            Para(self.tr("bw.proj_entry")),
            self.entry_sum("dW_Q[1,1]" if c.B == 1 else "(X^{\\top} dQ)[1,1]", c.X[b, :, 0], g.dQ[b, :, 0],
                           float(c.X[b, :, 0] @ g.dQ[b, :, 0])),
            self.batch_note(),
            Note(self.tr("bw.identity_weights")) if c.weights_identity else None]
        blocks += [self.matrix(n, getattr(g, n), rows=None) for n in ("dW_Q", "dW_K", "dW_V")]
        for name, d in (("b_Q", "dQ"), ("b_K", "dK"), ("b_V", "dV")):
            if getattr(g, "d" + name) is not None:
                blocks += [Para(self.tr("bw.bias", name=f"${name}$", d=f"${d}$")),
                           self.matrix("d" + name, getattr(g, "d" + name)[None], rows=None)]
        return self.section("backward.projections", "bw.proj_title", blocks)

    def inputs_back(self) -> Section | None:
        c, g, b = self.c, self.g, self.b
        if c.given_qkv:
            return None
        paths = [self.matrix("dQ\\, W_Q^{\\top}", g.dX_Q[b], query_rows=True),
                 self.matrix("dK\\, W_K^{\\top}", g.dX_K[b]), self.matrix("dV\\, W_V^{\\top}", g.dX_V[b])]
        if c.key is not None:
            return self.section("backward.inputs", "bw.dx_title", [
                Para(self.tr("bw.dx_cross")),
                Display("dX = dQ\\, W_Q^{\\top}, \\quad dX_k = dK\\, W_K^{\\top}, "
                        "\\quad dX_v = dV\\, W_V^{\\top}"), *paths])
        i = self.read_rows[0]
        return self.section("backward.inputs", "bw.dx_title", [
            Para(self.tr("bw.dx_self")),
            Display("dX = dQ\\, W_Q^{\\top} + dK\\, W_K^{\\top} + dV\\, W_V^{\\top}"), *paths,
            Para(self.tr("bw.dx_entry", i=self.qn(i))),
            Display(f"dX_{{{self.qn(i)},1}} = {self.signed(g.dX_Q[b, i, 0])} + {self.signed(g.dX_K[b, i, 0])} + "
                    f"{self.signed(g.dX_V[b, i, 0])} = {self.num(g.dX[b, i, 0])}"),
            self.matrix("dX", g.dX[b], query_rows=True)])

    def nudge_check(self) -> Section:
        from ..backward import nudge
        n = nudge(self.t, self.g)
        where = "[" + ",".join(str(k + 1) for k in n.index[-2:]) + "]"
        if n.name in ("X", "Q") and self.c.batched:
            where = f"[{n.index[0] + 1}]" + where
        exact = lambda x: prose_number(x, FD_DIGITS)            # noqa: E731
        return self.section("backward.check", "bw.fd_title", [
            Para(self.tr("bw.fd", name=f"${n.name}{where}$", L_minus=exact(n.L_minus), L_plus=exact(n.L_plus),
                         L=exact(self.g.L))),
            Display(f"\\frac{{L_+ - L_-}}{{2 \\cdot 10^{{-6}}}} = \\frac{{{exact(n.L_plus)} - {exact(n.L_minus)}}}"
                    f"{{2 \\cdot 10^{{-6}}}} = {exact(n.slope)}"),
            Para(self.tr("bw.fd_agree", name=f"$d{n.name}{where}$", grad=exact(n.grad),
                         diff=prose_number(abs(n.slope - n.grad), 1, scientific=True)))])

    def grad_shapes(self) -> Section:
        from ..trace import grad_shape_table
        rows = tuple((f"${_tex(row['symbol'])}$", "$[" + ", ".join(map(str, row["shape"])) + "]$")
                     for row in grad_shape_table(self.t))
        return self.section("backward.shapes", "bw.shapes_title", [
            Para(self.tr("bw.shapes")),
            Table(header=(self.tr("dim.h_symbol"), self.tr("dim.h_shape")), rows=rows)])


def _tex(symbol: str) -> str:
    """The trace's plain gradient names ("dO^(h)", "dW_Q", "dK_cache^(g)") as LaTeX."""
    s = symbol.replace("^(h)", "^{(h)}").replace("^(g)", "^{(g)}").replace("O_concat", "O_{\\text{concat}}")
    for part in ("_all", "_cache", "_rope"):
        s = s.replace(part, "_{\\text{" + part[1:] + "}}")
    for w in ("W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O", "X_Q", "X_K", "X_V"):
        s = s.replace(w, w[:2] + "{" + w[2:] + "}")
    return s
