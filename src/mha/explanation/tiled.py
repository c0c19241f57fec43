"""The online-softmax (tiled) walk-through: the same O^(h), one key block at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..fast import online_softmax_steps
from .blocks import Block, Display, Matrix, Note, Para, Section

if TYPE_CHECKING:
    from .model import Builder


def _col(b: "Builder", v: np.ndarray) -> str:
    return "[" + ", ".join(b.n(x) for x in v) + "]^\\top"


def tiled_sections(b: "Builder") -> list[Section]:
    t, c, size = b.t, b.c, b.o.tiled_block
    batch = b.o.batch
    secs = [b.sec("tiled", "tiled.title", [Para(b.tr("tiled.intro", block=size)),
                                            Display("m_i \\leftarrow \\max(m_i, \\max_j s_{ij}), \\quad "
                                                    "\\alpha_i = e^{m_i^{\\text{old}} - m_i}, \\quad "
                                                    "\\ell_i \\leftarrow \\alpha_i \\ell_i + \\sum_j e^{s_{ij} - m_i}, \\quad "
                                                    "\\tilde{o}_i \\leftarrow \\alpha_i \\tilde{o}_i + \\sum_j e^{s_{ij} - m_i} v_j"),
                                            Para(b.tr("tiled.memory"))], block=size)]
    for h in b.heads:
        H = h + 1
        S_h, V_h, O_h = t.S[batch, h], t.Vh[batch, h], t.O[batch, h]
        steps = online_softmax_steps(S_h, V_h, size)
        blocks: list[Block] = [Para(b.tr("tiled.head_intro", h=H, n=len(steps)))]
        for k, st in enumerate(steps):
            k0, k1 = st["keys"]
            blocks.append(Para(b.tr("tiled.block", k=k + 1, first=k0 + 1, last=k1)))
            blocks.append(b.matrix(f"S^{{({H})}}_{{:,\\,{k0 + 1}:{k1}}}", S_h[:, k0:k1], query_rows=True,
                                   suffix=""))
            blocks.append(Display(f"m = {_col(b, st['m'])}, \\quad "
                                  f"\\alpha = e^{{m^{{\\text{{old}}}} - m}} = {_col(b, st['alpha'])}"))
            blocks.append(b.matrix(f"e^{{S_{{:,\\,{k0 + 1}:{k1}}} - m}}", st["p"], query_rows=True, suffix=""))
            blocks.append(Display(f"\\ell = \\alpha \\odot \\ell^{{\\text{{old}}}} + \\textstyle\\sum_j e^{{s_{{ij}} - m_i}} "
                                  f"= {_col(b, st['l'])}"))
            blocks.append(b.matrix("\\tilde{O}", st["acc"], query_rows=True, suffix=""))
        out = steps[-1]["out"]
        blocks.append(Para(b.tr("tiled.final", h=H)))
        blocks.append(b.matrix(f"O^{{({H})}} = \\tilde{{O}} / \\ell", out, query_rows=True))
        diff = float(np.abs(out - O_h).max())
        blocks.append(Note(b.tr("tiled.same", h=H, diff=f"{diff:.1e}")))
        secs.append(b.sec(f"tiled.head{H}", "tiled.head_title", blocks, level=3, h=H))
    return secs
