"""The steps of today's language models' attention: shared key/value heads, RoPE, the KV cache and ALiBi.

Each step is one method returning a `Section`, or None when the configuration
does not use it; `model.Builder` places them in the core's order.  Numbers come
from the trace, or from the core's own functions applied to the trace's vectors
(the RoPE demonstration that a score depends only on the distance).
"""

from __future__ import annotations

import numpy as np

from .base import EDGE, MAX_ROWS, Writer, sup
from .blocks import Block, Display, Items, Note, Para, Section

DEMO_POSITIONS = ((2, 5), (7, 10))      # two (query, key) position pairs at the same distance
OTHER_DISTANCE = (2, 6)                  # and one farther apart


class ModernSteps(Writer):
    """GQA, RoPE, the KV cache and ALiBi as step methods."""

    def sharing(self, g: int) -> str:
        """The query heads (1-based, listed) that read key/value head g."""
        return self.listing(h + 1 for h in range(self.c.n_heads) if self.t.group(h) == g)

    def new_kv(self, name: str, g: int) -> str:
        """K or V of key/value head g as this call's split gives it: with a cache, only the new rows, so
        K^(g) stays the name of what the heads attend over (cache rows first)."""
        return sup(name, g) + ("_{\\text{new}}" if self.c.cache_K is not None else "")

    def shown_groups(self) -> list[int]:
        """The key/value heads that the walked-through query heads read."""
        return sorted({self.t.group(h) for h in self.heads})

    # ------------------------------------------------------------ grouped-query attention

    def kv_sharing(self) -> Section | None:
        """Grouped-query attention: which query heads read which key/value head, and what the cache saves."""
        c = self.c
        if c.G == c.n_heads:
            return None
        per_token, per_token_mha = c.G * (c.d_k + c.d_v), c.n_heads * (c.d_k + c.d_v)
        return self.section("gqa", "gqa.title", [
            Items(tuple(self.tr("gqa.group", g=g + 1, heads=self.sharing(g)) for g in range(c.G))),
            Para(self.tr("gqa.cache", G=c.G, H=c.n_heads, per_token=per_token, per_token_mha=per_token_mha,
                         ratio=self.say(per_token_mha / per_token)))])

    # ------------------------------------------------------------ rotary position embedding

    def rope(self) -> Section | None:
        """RoPE: frequencies, one token's angles, one pair's rotation, the rotated Q and K, and relative positions."""
        c, t, b = self.c, self.t, self.b
        r = c.rope
        if r is None:
            return None
        pairs = self.tr("rope.half", half=r.dims // 2) if r.style == "half" else self.tr("rope.interleaved")
        freqs = self.tr("rope.freqs_base", base=self.say(r.base), dims=r.dims, d_k=c.d_k) if r.base is not None \
            else self.tr("rope.freqs_given", dims=r.dims, d_k=c.d_k)
        theta = [f"$\\theta_{{{i + 1}}} = {self.num(r.inv_freq[i])}$" for i in self.some(len(r.inv_freq))]
        theta.append(self.tr("rope.positions", queries=self.elided(r.positions[b].tolist()),
                             keys=self.elided(r.key_positions[b].tolist())))
        blocks: list[Block] = [
            Para(self.tr("rope.intro", pairs=pairs)),
            Display("(a, b) \\mapsto (a \\cos p\\theta_i - b \\sin p\\theta_i,\\; "
                    "b \\cos p\\theta_i + a \\sin p\\theta_i)"),
            Para(freqs), Items(tuple(theta)), *self.rope_angles(), *self.rope_pair()]
        for h in self.heads:
            blocks.append(self.matrix(f"\\mathrm{{RoPE}}({sup('Q', h)})", t.Qh_rope[b, h], query_rows=True))
        for g in self.shown_groups():
            blocks.append(self.matrix(f"\\mathrm{{RoPE}}({self.new_kv('K', g)})", t.Kh_rope[b, g]))
        return self.section("rope", "rope.title", blocks + self.rope_relative())

    def some(self, n: int) -> list[int]:
        """Indices to list in words: all of a short list, else the first EDGE and the last."""
        return list(range(n)) if n <= MAX_ROWS or self.o.full else list(range(EDGE)) + [n - 1]

    def elided(self, values: list[int]) -> str:
        """A list of numbers for a sentence, "0, 1, 2, …, 511" when long."""
        if len(values) <= MAX_ROWS or self.o.full:
            return self.listing(values)
        return self.listing([*values[:EDGE], "…", values[-1]])

    def rope_example(self) -> tuple[int, int]:
        """(head, query row) whose first pair the RoPE step turns by hand: a shown token at a position other
        than 0 (which would not turn at all), with a pair that is not (0, 0), when there is one."""
        r, t, b = self.c.rope, self.t, self.b
        f1, f2 = self.pair_features()
        for i in self.read_rows:
            for h in self.heads:
                if r.positions[b, i] != 0 and (t.Qh[b, h, i, f1] != 0 or t.Qh[b, h, i, f2] != 0):
                    return h, i
        return self.heads[0], self.read_rows[0]

    def rope_angles(self) -> list[Block]:
        """The angles p·θ_i of one shown query token, from the core's rope_angles."""
        from ..core import rope_angles
        r, i = self.c.rope, self.rope_example()[1]
        p = int(r.positions[self.b, i])
        angles = rope_angles(r.positions[self.b], r.inv_freq)[i]               # [dims/2]
        items = tuple(f"$p\\,\\theta_{{{k + 1}}} = {p} \\times {self.num(r.inv_freq[k])} = {self.num(angles[k])}$"
                      for k in self.some(len(angles)))
        return [Para(self.tr("rope.angles", i=self.qn(i), p=p)), Items(items)]

    def pair_features(self) -> tuple[int, int]:
        """The 0-based features of the first rotated pair."""
        r = self.c.rope
        return (0, r.dims // 2) if r.style == "half" else (0, 1)

    def rope_pair(self) -> list[Block]:
        """The first pair of one query, rotated by its 2×2 matrix (cos and sin as numbers); the result is the trace's."""
        from ..core import rope_angles
        c, t, b = self.c, self.t, self.b
        r, (h, i) = c.rope, self.rope_example()
        f1, f2 = self.pair_features()
        angle = float(rope_angles(r.positions[b], r.inv_freq)[i, 0])
        x, y = t.Qh[b, h, i, f1], t.Qh[b, h, i, f2]
        x2, y2 = t.Qh_rope[b, h, i, f1], t.Qh_rope[b, h, i, f2]
        R = r.attention_factor * np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        p = int(r.positions[b, i])
        rot = f"R({p}\\,\\theta_1)"              # exact: the test recomputes cos and sin from p and theta_1
        n = self.paren
        blocks: list[Block] = [
            Para(self.tr("rope.pair", h=h + 1, i=self.qn(i), f1=f1 + 1, f2=f2 + 1, a=self.say(x), b=self.say(y),
                         angle=self.say(angle))),
            self.matrix(rot, R, rows=None, show_shape=False),
            Display(f"a' = {n(R[0, 0])} \\times {n(x)} + {n(R[0, 1])} \\times {n(y)} = {self.num(x2)}, \\quad "
                    f"b' = {n(R[1, 0])} \\times {n(x)} + {n(R[1, 1])} \\times {n(y)} = {self.num(y2)}"),
            Para(self.tr("rope.pair_result", h=h + 1, i=self.qn(i), f1=f1 + 1, f2=f2 + 1, a=self.say(x2),
                         b=self.say(y2)))]
        if r.attention_factor != 1.0:
            blocks.append(Note(self.tr("rope.factor", factor=self.say(r.attention_factor))))
        return blocks

    def paren(self, x: float) -> str:
        """A number in math, in parentheses when negative (so that "+ (-0.14)" reads as a sum)."""
        s = self.num(x)
        return f"({s})" if s.startswith("-") else s

    def rope_relative(self) -> list[Block]:
        """The same query and key vectors placed at (2, 5) and at (7, 10): equal scores, computed by the core."""
        from ..core import apply_rope, head_attention, rope_angles
        c, t, b = self.c, self.t, self.b
        r, h = c.rope, self.heads[0]
        g = t.group(h)
        q, k = t.Qh[b, h, 0], t.Kh[b, g, 0]          # the head's first query and first new key, not yet rotated

        def rotated(v: np.ndarray, p: int) -> np.ndarray:
            angles = rope_angles(np.array([[p]]), r.inv_freq)                       # [1, 1, dims/2]
            return apply_rope(v.reshape(1, 1, 1, -1), angles, style=r.style, dims=r.dims,
                              factor=r.attention_factor)[0, 0]                       # [1, d_k]

        def score(pq: int, pk: int) -> float:
            return float(head_attention(rotated(q, pq), rotated(k, pk), np.zeros((1, 1)), scale=1.0).QKt[0, 0])

        q_sym, k_sym = f"q^{{({h + 1})}}_{{{self.qn(0)}}}", f"k^{{({g + 1})}}_{{{c.S_past + 1}}}"
        lines = ", \\quad ".join(f"(R_{{{pq}}}\\,{q_sym}) \\cdot (R_{{{pk}}}\\,{k_sym}) = {self.num(score(pq, pk))}"
                                 for pq, pk in DEMO_POSITIONS)
        (p1, k1), (p2, k2) = DEMO_POSITIONS
        p3, k3 = OTHER_DISTANCE
        return [Para(self.tr("rope.relative")),
                Para(self.tr("rope.relative_demo", q=f"${q_sym} = {self.vec(q)}$", k=f"${k_sym} = {self.vec(k)}$",
                             p1=p1, k1=k1, p2=p2, k2=k2, d=k1 - p1)),
                Display(lines),
                Para(self.tr("rope.other_distance", p1=p3, k1=k3, d=k3 - p3, score=self.say(score(p3, k3))))]

    # ------------------------------------------------------------ the KV cache

    def cache(self) -> Section | None:
        """The KV cache before and after this step, what is reused and computed, and the cost against starting over."""
        c, t, b = self.c, self.t, self.b
        if c.cache_K is None:
            return None
        blocks: list[Block] = [Para(self.tr("cache.intro", S_past=c.S_past, S_new=c.S_new,
                                            tokens=self.span(c.S_past + 1, c.S)))]
        for g in self.shown_groups():
            blocks += [self.matrix(f"K^{{({g + 1})}}_{{\\text{{cache}}}}", c.cache_K[b, g], rows="past_keys"),
                       self.matrix(f"V^{{({g + 1})}}_{{\\text{{cache}}}}", c.cache_V[b, g], rows="past_keys")]
        blocks.append(Para(self.tr("cache.after", S=c.S, tokens=self.span(c.S_past + 1, c.S))))
        for g in self.shown_groups():
            blocks += [self.matrix(sup("K", g), t.K_all[b, g], rows="keys"),
                       self.matrix(sup("V", g), t.V_all[b, g], rows="keys")]
        reused = c.G * c.S_past * (c.d_k + c.d_v)
        projected = self.tr("cache.projected", T=c.T, S=c.S) if not c.given_qkv else None
        items = [self.tr("cache.reused", S_past=c.S_past, G=c.G, numbers=reused),
                 projected,
                 self.tr("cache.scores", T=c.T, S=c.S, TS=c.T * c.S, SS=c.S * c.S, H=c.n_heads),
                 self.tr("cache.rows", rows=self.span(self.qn(0), self.qn(c.T - 1)))]
        blocks += [Para(self.tr("cache.work")), Items(tuple(i for i in items if i)),
                   Para(self.tr("cache.cost", ratio=self.say(self.ratio(c.S, c.T)), S=c.S, T=c.T))]
        return self.section("cache", "cache.title", blocks)

    # ------------------------------------------------------------ ALiBi

    def slopes(self) -> np.ndarray:
        from ..core import alibi_slopes
        c = self.c
        return alibi_slopes(c.n_heads) if c.alibi_rule == "press" and c.alibi is None else c.alibi

    def alibi_intro(self) -> Section | None:
        """ALiBi before the heads: the rule and every head's slope."""
        c = self.c
        if c.alibi_rule is None:
            return None
        rule = self.tr("alibi.press", H=c.n_heads) if c.alibi_rule == "press" else self.tr("alibi.custom")
        slopes = self.slopes()
        items = tuple(self.tr("alibi.slope", h=h + 1, slope=f"$m^{{({h + 1})}} = {self.num(s)}$")
                      for h, s in enumerate(slopes))
        return self.section("alibi", "alibi.layer_title", [
            Para(self.tr("alibi.layer_intro", rule=rule)),
            Display("B^{(h)}_{ij} = -m^{(h)} \\cdot |p_i - j|"), Items(items)])

    def alibi(self, h: int) -> Section | None:
        """ALiBi in one head: its slope and its bias matrix (the trace's position_bias), added to the scaled scores."""
        bias = self.t.position_bias
        if bias is None:
            return None
        return self.section(f"head{h + 1}.alibi", "alibi.title", [
            Para(self.tr("alibi.intro", h=h + 1, slope=self.say(self.slopes()[h]))),
            self.matrix(sup("B", h), bias[h], query_rows=True, cols="keys")], level=3, h=h + 1)
