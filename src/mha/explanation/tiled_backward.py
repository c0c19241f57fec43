"""The backward pass on tiles: FlashAttention-2 keeps lse and D per row and recomputes P one key block at a time."""

from __future__ import annotations

import numpy as np

from .base import Writer, sup
from .blocks import Block, Display, Note, Para, Section
from .numbers import prose_number


class TiledBackward(Writer):
    """Each shown head's gradients redone in key blocks of `tiled_block`, checked against the untiled ones."""

    def sections(self) -> list[Section]:
        size = self.o.tiled_block
        intro = self.section("tiled.backward", "bw.tiled_title", [
            Para(self.tr("bw.tiled_intro")),
            Display("\\mathrm{lse}_i = m_i + \\log \\ell_i, \\qquad D_i = \\sum_d dO_{id}\\, O_{id}"),
            Display("P = e^{S - \\mathrm{lse}}, \\quad dV_{\\text{block}} = P^{\\top} dO, \\quad "
                    "dS = P \\odot (dO\\, V_{\\text{block}}^{\\top} - D), \\quad "
                    "dK_{\\text{block}} = \\text{scale} \\cdot dS^{\\top} Q, \\quad "
                    "dQ \\leftarrow dQ + \\text{scale} \\cdot dS\\, K_{\\text{block}}"),
            Para(self.tr("bw.tiled_memory"))], block=size)
        return [intro] + [self.head(h) for h in self.heads]

    def head(self, h: int) -> Section:
        from ..fast import online_softmax_steps
        from ..fast_backward import flash_backward_steps
        g, b, a, H = self.t.grads, self.b, self.t.head(h, self.b), h + 1
        fwd = online_softmax_steps(a["S"], a["V"], self.o.tiled_block)[-1]        # the forward's m and ℓ
        with np.errstate(divide="ignore"):
            lse = np.where(fwd["l"] > 0, fwd["m"] + np.log(np.where(fwd["l"] > 0, fwd["l"], 1.0)), -np.inf)
        D, steps = flash_backward_steps(a["S"], a["Q"], a["K"], a["V"], a["O"], g.dO[b, h], lse,
                                        self.c.effective_scale, self.o.tiled_block)
        blocks: list[Block] = [Para(self.tr("bw.tiled_head_intro", h=H, n=len(steps))),
                               self.matrix(f"\\mathrm{{lse}}^{{({H})}}", lse[:, None], query_rows=True,
                                           masked=~np.isfinite(lse)[:, None]),
                               self.matrix(sup("D", h), D[:, None], query_rows=True)]
        for k, st in enumerate(steps):
            k0, k1 = st["keys"]
            keys = f"{k0 + 1}:{k1}"
            visible = a["S"][:, k0:k1] > -np.inf
            blocks += [
                Para(self.tr("bw.tiled_block", k=k + 1, first=k0 + 1, last=k1)),
                self.matrix(f"P_{{:,\\,{keys}}} = e^{{S_{{:,\\,{keys}}} - \\mathrm{{lse}}}}", st["P"], query_rows=True,
                            show_shape=False, masked=~visible),
                self.matrix(f"dS_{{:,\\,{keys}}}", st["dS"], query_rows=True, show_shape=False, masked=~visible),
                self.matrix(f"dV_{{{keys}}}", st["dV"], rows=None, show_shape=False),
                self.matrix(f"dK_{{{keys}}}", st["dK"], rows=None, show_shape=False)]
        dQ = steps[-1]["dQ"]
        dQ_ref = (g.dQh if g.dQh_rope is None else g.dQh_rope)[b, h]
        dK = np.concatenate([st["dK"] for st in steps])
        dV = np.concatenate([st["dV"] for st in steps])
        diff = max(float(np.abs(dQ - dQ_ref).max()), float(np.abs(dK - g.dK_share[b, h]).max()),
                   float(np.abs(dV - g.dV_share[b, h]).max()))
        blocks += [Para(self.tr("bw.tiled_final", h=H)),
                   self.matrix(sup("dQ", h), dQ, query_rows=True),
                   Note(self.tr("bw.tiled_same", h=H, diff=prose_number(diff, 1, scientific=True)))]
        return self.section(f"tiled.backward.head{H}", "bw.tiled_head_title", blocks, level=3, h=H)
