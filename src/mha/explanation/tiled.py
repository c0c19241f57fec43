"""The online-softmax (tiled) walk-through: the same O^(h), one key block at a time."""

from __future__ import annotations

import numpy as np

from .base import Writer
from .blocks import Block, Display, Note, Para, Section
from .numbers import prose_number


class Tiled(Writer):
    """The sections that redo each shown head's softmax and weighted sum in key blocks of `tiled_block`."""

    def sections(self) -> list[Section]:
        size = self.o.tiled_block
        intro = self.section("tiled", "tiled.title", [
            Para(self.tr("tiled.intro", block=size)),
            Display("m_i \\leftarrow \\max(m_i, \\max_j s_{ij}), \\quad "
                    "\\alpha_i = e^{m_i^{\\text{old}} - m_i}, \\quad "
                    "\\ell_i \\leftarrow \\alpha_i \\ell_i + \\sum_j e^{s_{ij} - m_i}, \\quad "
                    "\\tilde{o}_i \\leftarrow \\alpha_i \\tilde{o}_i + \\sum_j e^{s_{ij} - m_i} v_j"),
            Para(self.tr("tiled.memory"))], block=size)
        return [intro] + [self.head(h) for h in self.heads]

    def column(self, v: np.ndarray) -> str:
        return self.vec(v) + "^\\top"

    def head(self, h: int) -> Section:
        from ..fast import online_softmax_steps      # the tiled path's own bookkeeping, loaded only for --tiled
        a = self.t.head(h, self.b)
        H = h + 1
        steps = online_softmax_steps(a["S"], a["V"], self.o.tiled_block)
        blocks: list[Block] = [Para(self.tr("tiled.head_intro", h=H, n=len(steps)))]
        for k, st in enumerate(steps):
            k0, k1 = st["keys"]
            keys = f"{k0 + 1}:{k1}"
            blocks += [
                Para(self.tr("tiled.block", k=k + 1, first=k0 + 1, last=k1)),
                self.matrix(f"S^{{({H})}}_{{:,\\,{keys}}}", a["S"][:, k0:k1], query_rows=True, show_shape=False,
                            masked=a["S"][:, k0:k1] == -np.inf),
                Display(f"m = {self.column(st['m'])}, \\quad "
                        f"\\alpha = e^{{m^{{\\text{{old}}}} - m}} = {self.column(st['alpha'])}"),
                self.matrix(f"e^{{S_{{:,\\,{keys}}} - m}}", st["p"], query_rows=True, show_shape=False),
                Display(f"\\ell = \\alpha \\odot \\ell^{{\\text{{old}}}} + \\textstyle\\sum_j e^{{s_{{ij}} - m_i}} "
                        f"= {self.column(st['l'])}"),
                self.matrix("\\tilde{O}", st["acc"], query_rows=True, show_shape=False)]
        out = steps[-1]["out"]
        diff = float(np.abs(out - a["O"]).max())
        blocks += [Para(self.tr("tiled.final", h=H)),
                   self.matrix(f"O^{{({H})}} = \\tilde{{O}} / \\ell", out, query_rows=True),
                   Note(self.tr("tiled.same", h=H, diff=prose_number(diff, 1, scientific=True)))]
        return self.section(f"tiled.head{H}", "tiled.head_title", blocks, level=3, h=H)
