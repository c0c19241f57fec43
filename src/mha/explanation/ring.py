"""The ring walk-through: the same O^(h), with the sequence split over P devices and the K/V blocks passed round.

The ring is simulated in one process by `mha.shards.simulate`, which runs the
same steps and merges (`fast.merge_tile`) as the distributed `mha.ring`; a test
shows the two give the same numbers.  Scores are read from the trace.
"""

from __future__ import annotations

import math

import numpy as np

from ..inputs import MHAInputError
from ..shards import Layout, Ring, messages, simulate, visible_pairs
from .base import Writer
from .blocks import Block, Display, Items, Note, Para, Section, Table
from .numbers import prose_number

BALANCE_ROWS = 2048       # the load-balance table counts T = 2048 P tokens (the example's few are too short)
LONG_T = 65_536           # the sequence the memory sentence counts


class RingWalk(Writer):
    """The sections that redo each shown head on P = `devices` devices, one K/V block travelling per step."""

    def sections(self) -> list[Section]:
        self.check()
        P = self.o.devices
        lay = Layout(self.c.T, P)
        rings = {h: self.run(h) for h in self.heads}
        out = [self.overview(lay)] + [self.head(h, rings[h]) for h in self.heads]
        return out + ([self.memory(lay), self.balance(P)] if P > 1 else [])      # one device: nothing to compare

    def check(self) -> None:
        """The ring splits one sequence's queries, keys and values alike: self-attention without a cache, with
        no mask other than causal and padding, no bias, ALiBi or window."""
        c = self.c
        other = [name for name, used in (("a KV cache", c.cache_K is not None), ("keys of another length", c.S != c.T),
                                         ("a mask", c.mask is not None), ("a bias", c.bias is not None),
                                         ("ALiBi", c.alibi_rule is not None), ("a sliding window", c.window is not None))
                 if used]
        if other:
            raise MHAInputError(f"devices: the ring walk-through splits one sequence's queries, keys and values "
                                f"(causal masks and padding allowed); this configuration has {other[0]}")

    def run(self, h: int) -> Ring:
        a, c = self.t.head(h, self.b), self.c
        kl = None if c.key_lengths is None else [int(np.broadcast_to(c.key_lengths, (c.B,))[self.b])]
        return simulate(a["Q"][None], a["K"][None], a["V"][None], self.o.devices, causal=c.causal != "none",
                        scale=c.effective_scale, key_lengths=kl)

    # ------------------------------------------------------------ words

    def tokens(self, lay: Layout, p: int) -> str:
        """Device p's tokens in words ("1", "2 to 3", "none")."""
        runs = [self.span(a + 1, b) for a, b in lay.chunks(p) if b > a]
        return self.listing(runs) if runs else self.tr("ring.none")

    def device(self, p: int) -> str:
        return self.tr("ring.device", p=p + 1)

    # ------------------------------------------------------------ the layout, the steps, the messages

    def overview(self, lay: Layout) -> Section:
        c, P = self.c, lay.P
        rows = lay.rows()
        rule = self.tr("ring.even", n=rows[0]) if len(set(rows)) == 1 else \
            self.tr("ring.uneven", extra=c.T % P, more=max(rows), less=min(rows), T=c.T, P=P)
        holds = Items(tuple(self.tr("ring.holds", p=p + 1, tokens=self.tokens(lay, p)) for p in range(P)))
        header = (self.tr("ring.h_step"),) + tuple(self.device(p) for p in range(P))
        steps = Table(header, tuple((str(s + 1),) + tuple(self.tokens(lay, lay.owner(p, s)) for p in range(P))
                                    for s in range(P)))
        dt = np.dtype(c.dtype)
        sent = messages(lay, 1, c.G, c.d_k, c.d_v, dt.itemsize)
        mail = Table((self.tr("ring.h_after"), self.tr("ring.h_route"), self.tr("ring.h_block"),
                      self.tr("ring.h_numbers"), self.tr("ring.h_bytes")),
                     tuple((str(m.step + 1), f"{m.sender + 1} $\\to$ {m.receiver + 1}", self.tokens(lay, m.owner),
                            str(m.bytes // dt.itemsize), str(m.bytes)) for m in sent if m.rows))
        blocks: list[Block] = [
            Para(self.tr("ring.intro", T=c.T, P=P, rule=rule)), holds,
            Para(self.tr("ring.steps", P=P)), steps,
            Para(self.tr("ring.merge")),
            Display("m = \\max(m^{\\text{old}}, m_t), \\quad \\alpha = e^{m^{\\text{old}} - m}, \\quad "
                    "\\beta = e^{m_t - m}, \\quad \\ell = \\alpha \\ell^{\\text{old}} + \\beta \\ell_t, \\quad "
                    "\\tilde{o} = \\alpha \\tilde{o}^{\\text{old}} + \\beta \\tilde{o}_t"),
            Para(self.tr("ring.messages", G=c.G, d_k=c.d_k, d_v=c.d_v, per_token=c.G * (c.d_k + c.d_v),
                         bytes=dt.itemsize, dtype=dt.name))
            if sent else Para(self.tr("ring.no_messages")),
            mail if sent else None]
        return self.section("ring", "ring.title", blocks, P=P)

    # ------------------------------------------------------------ one head on the ring

    def head(self, h: int, ring: Ring) -> Section:
        H, lay = h + 1, ring.layout
        S = self.t.head(h, self.b)["S"]
        blocks: list[Block] = [Para(self.tr("ring.head_intro", h=H))]
        d_v = ring.O[0].shape[-1]
        carried = {i: (-np.inf, 0.0, np.zeros(d_v)) for i in range(self.c.T)}   # each query row's (m, l, o~)
        for s, row in enumerate(ring.steps):
            blocks += [Para(self.tr("ring.step", s=s + 1)), self.step_table(lay, row, S, carried)]
        blocks += self.rescale(ring)
        O = self.t.head(h, self.b)["O"]
        ring_O = lay.join(ring.O)[0, 0]
        diff = float(np.abs(ring_O - O).max()) if O.size else 0.0
        final = tuple((self.device(p), self.labels("queries")[i], f"${self.vec(ring_O[i])}$", f"${self.vec(O[i])}$")
                      for p in range(lay.P) for i in lay.positions(p) if i in self.rows)
        blocks += [Para(self.tr("ring.final", h=H)),
                   Table((self.tr("ring.h_device"), self.tr("ring.h_token"), self.tr("ring.h_ring", h=H),
                          self.tr("ring.h_single", h=H)), final),
                   Note(self.tr("ring.same", h=H, diff=prose_number(diff, 1, scientific=True)))]
        return self.section(f"ring.head{H}", "ring.head_title", blocks, level=3, h=H)

    def step_table(self, lay: Layout, row: list, S: np.ndarray, carried: dict) -> Table:
        """One step: per shown query token, the K/V tokens held, the tile's scores, and (m, l, o~) after merging
        (carried over unchanged when every key of the block is masked for the token, so the tile is skipped)."""
        labels = self.labels("queries")
        out = []
        for p, st in enumerate(row):
            keys = lay.positions(st.owner)
            merged = set()
            for mg in st.merges:
                for k in range(mg.rows[1] - mg.rows[0]):
                    i = mg.q_pos[0] + k
                    carried[i] = (mg.merged.m[0, 0, k], mg.merged.l[0, 0, k], mg.merged.acc[0, 0, k])
                    merged.add(i)
            for i in lay.positions(p):
                if i not in self.rows:
                    continue
                m, l, acc = carried[i]
                scores = f"${self.vec(S[i, keys])}$" if i in merged else self.tr("ring.skipped")
                out.append((self.device(p), labels[i], self.tokens(lay, st.owner), scores,
                            f"${self.num(m)}$", f"${self.num(l)}$", f"${self.vec(acc)}$"))
        return Table((self.tr("ring.h_device"), self.tr("ring.h_token"), self.tr("ring.h_keys"),
                      self.tr("ring.h_scores"), "$m$", "$\\ell$", "$\\tilde{o}$"), tuple(out))

    def rescale(self, ring: Ring) -> list[Block]:
        """The merge written out for one entry: the first, after step 1, where the tile brings a larger max
        (else the first merge after step 1)."""
        picks = []
        for s, row in enumerate(ring.steps[1:], start=1):
            for p, st in enumerate(row):
                for mg in st.merges:
                    for k in range(mg.rows[1] - mg.rows[0]):
                        if mg.q_pos[0] + k in self.rows and np.isfinite(mg.tile[0][0, 0, k]):
                            m_t, m_old = mg.tile[0][0, 0, k], mg.old[0][0, 0, k]
                            picks.append((s, p, mg, k, int(m_t > m_old), int(m_t < m_old)))
        if not picks:
            return []
        # the most telling entry: the tile raises the max (the old state is rescaled), else lowers it (the tile is)
        s, p, mg, k, _, _ = min(picks, key=lambda x: (-x[4] * 2 - x[5], x[:2]))
        (m0, l0, o0), (mt, lt, ot) = ((x[0, 0, k] for x in mg.old), (x[0, 0, k] for x in mg.tile))
        new = mg.merged
        m, a, b, l, o = new.m[0, 0, k], new.alpha[0, 0, k], new.beta[0, 0, k], new.l[0, 0, k], new.acc[0, 0, k]
        n, v = self.num, self.vec
        i = mg.q_pos[0] + k
        return [Para(self.tr("ring.rescale", s=s + 1, p=p + 1, i=self.labels("queries")[i],
                             m_t=self.say(mt), l_t=self.say(lt), o_t=self.say_vec(ot))),
                Display(f"m = \\max({n(m0)}, {n(mt)}) = {n(m)}, \\quad "
                        f"\\alpha = e^{{{n(m0)} - {n(m)}}} = {n(a)}, \\quad \\beta = e^{{{n(mt)} - {n(m)}}} = {n(b)}"),
                Display(f"\\ell = {n(a)} \\cdot {n(l0)} + {n(b)} \\cdot {n(lt)} = {n(l)}"),
                Display(f"\\tilde{{o}} = {n(a)} \\cdot {v(o0)} + {n(b)} \\cdot {v(ot)} = {v(o)}")]

    # ------------------------------------------------------------ why it pays

    def memory(self, lay: Layout) -> Section:
        c, P = self.c, lay.P
        H, G, dk, dv = c.n_heads, c.G, c.d_k, c.d_v
        per_row = H * dk + 2 * G * (dk + dv) + H * (dv + 2)      # Q, the K/V block held and the one arriving, state
        one_row = H * dk + G * (dk + dv) + H * (dv + 2)
        n = max(lay.rows())
        n_long = math.ceil(LONG_T / P)
        mib = 4 / 2**20                                           # float32
        return self.section("ring.memory", "ring.memory_title", [
            Para(self.tr("ring.memory", n=n, T=c.T, P=P, per_row=per_row, device=n * per_row,
                         one=c.T * one_row, scores=c.T * c.T * H)),
            Display(f"H d_k + 2 G (d_k + d_v) + H (d_v + 2) = {H} \\cdot {dk} + 2 \\cdot {G} \\cdot ({dk} + {dv}) + "
                    f"{H} \\cdot ({dv} + 2) = {per_row}"),
            Para(self.tr("ring.memory_long", T=f"{LONG_T:,}", P=P, n=f"{n_long:,}",
                         device=prose_number(n_long * per_row * mib, 1), one=prose_number(LONG_T * one_row * mib, 1),
                         scores=prose_number(LONG_T * LONG_T * H * mib / 1024, 1)))], level=3)

    def balance(self, P: int) -> Section:
        T = BALANCE_ROWS * P                       # 2P chunks of 1024: zigzag then balances exactly
        flat = visible_pairs(Layout(T, P), causal=True)
        zig = visible_pairs(Layout(T, P, zigzag=True), causal=True)
        rows = tuple((str(s + 1), ", ".join(f"{x:,}" for x in flat[s]), f"{flat[s].max():,}",
                      ", ".join(f"{x:,}" for x in zig[s]), f"{zig[s].max():,}") for s in range(P))
        total = (self.tr("ring.h_total"), "", f"{flat.max(axis=1).sum():,}", "", f"{zig.max(axis=1).sum():,}")
        lay = Layout(T, P, zigzag=True)
        return self.section("ring.balance", "ring.balance_title", [
            Para(self.tr("ring.balance", T=f"{T:,}", P=P, n=f"{BALANCE_ROWS:,}", first=self.tokens(lay, 0))),
            Table((self.tr("ring.h_step"), self.tr("ring.h_contiguous"), self.tr("ring.h_slowest"),
                   self.tr("ring.h_zigzag"), self.tr("ring.h_slowest")), rows + (total,)),
            Para(self.tr("ring.balance_sum", ratio=prose_number(flat.max(axis=1).sum() / zig.max(axis=1).sum(), 2),
                         ideal=f"{flat.sum() // P:,}", T=f"{T:,}", P=P))], level=3)
