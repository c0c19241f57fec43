"""The heads' outputs side by side: `Concat = [head_1 | head_2]` printed under the heads it is made of.

A concatenation is its heads, column block after column block, whatever produced the heads: the page's own
printouts are the terms, as a written sum's are (identity from the names and from the other cells: two thirds of
the concatenation, and two cells at least, must be the heads as printed).  A cell that is not is one finding; the
configuration's own judging of the same printout, where it made one, comes first."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..infer.prepare import Obj
from ..report import Finding, NotChecked


@dataclass
class ConcatClaim:
    concat: Obj            # the printed concatenation
    heads: list[Obj]       # the printed heads, in order of their index


def _heads_before(objs: list[Obj], c: Obj) -> list[Obj] | None:
    """The latest printout of each head's output before c, with c's rows, whose widths add up to c's width; the
    heads numbered one after another from the first."""
    by_head: dict[int, Obj] = {}
    for o in objs:
        if o is c or o.val is None or o.val.ndim != 2 or o.slices != 1 or o.ref is None or not o.ref.strong:
            continue
        if o.a.place.order >= c.a.place.order or o.ref.head is None or "O" not in o.ref.nodes or \
                o.ref.row is not None or o.ref.col is not None or o.val.shape[0] != c.val.shape[0]:
            continue
        by_head[o.ref.head] = o
    keys = sorted(by_head)
    if len(keys) < 2 or keys != list(range(keys[0], keys[0] + len(keys))):
        return None
    heads = [by_head[k] for k in keys]
    return heads if sum(h.val.shape[1] for h in heads) == c.val.shape[1] else None


def concat_claims(objs: list[Obj]) -> list[ConcatClaim]:
    out = []
    for c in objs:
        if c.val is None or c.val.ndim != 2 or c.slices != 1 or c.lo is None or c.ref is None or \
                not c.ref.strong or c.ref.nodes != ("O_concat",) or c.ref.head is not None:
            continue
        heads = _heads_before(objs, c)
        if heads is not None and all(h.lo is not None for h in heads):
            out.append(ConcatClaim(c, heads))
    return out


class ConcatJudging:
    """Mixin for Judge: a printed concatenation against the printed heads."""

    def judge_concat(self, claim: ConcatClaim) -> None:
        c = claim.concat
        lines = {c.a.line} | {n.line for n in c.a.numbers if n is not None and n.line}
        if getattr(self, "plans", {}).get(c.a.id, {}).get("kind") == "holds" or \
                any(f.cell == c.a.place.cell and f.line in lines for f in self.findings):
            return                      # the configuration judged this printout already
        for h in claim.heads:
            rows = {h.a.line} | {n.line for n in h.a.numbers if n is not None and n.line}
            if any(f.severity == "error" and f.cell == h.a.place.cell and f.line in rows for f in self.findings):
                return                  # a head found wrong is no reference for the concatenation
        lo = np.hstack([h.lo for h in claim.heads])
        hi = np.hstack([h.hi for h in claim.heads])
        mid = np.hstack([h.val for h in claim.heads])
        ok = (c.hi >= lo - 1e-12) & (c.lo <= hi + 1e-12)
        n_ok = int(ok.sum())
        if n_ok < 2 or 3 * n_ok < 2 * ok.size:
            return                      # mostly not those heads: not the concatenation of these printouts
        self.n_claims += 1
        self.n_numbers += ok.size
        # (judged here: no "matches nothing" line for it beside the verdict)
        self.not_checked = [n for n in self.not_checked if not (n.cell == c.a.place.cell and n.line in lines)]
        where = ", ".join(str(h.a.line) for h in claim.heads)
        starts = np.cumsum([0] + [h.val.shape[1] for h in claim.heads])
        plans = getattr(self, "plans", {})
        for i, j in zip(*np.nonzero(~ok)):
            num = c.a.rows[i][j]
            if num is None:
                continue
            h = claim.heads[int(np.searchsorted(starts, j, side="right")) - 1]
            if plans.get(h.a.id, {}).get("kind") != "holds" and self._head_worked(h):
                # a head worked on the page from its weights, and not confirmed: its printout is no more trusted
                # than the concatenation's, so which copy slipped is not known
                self.not_checked.append(NotChecked(
                    num.line or c.a.row_line(i), c.a.place.cell, f"O_concat[{i + 1},{j + 1}]",
                    f"printed {num.text}, and the head printed at line {h.a.row_line(i)} has "
                    f"{num.rounded(float(mid[i, j]))} there: one copy differs, and nothing printed says which"))
                continue
            self.add(Finding(num.line or c.a.row_line(i), c.a.place.cell, f"O_concat[{i + 1},{j + 1}]", num.text,
                             float(mid[i, j]), num.rounded(float(mid[i, j])), "concat",
                             f"the heads printed at lines {where}, side by side, give {num.rounded(float(mid[i, j]))}",
                             "wrong_value"))

    def _head_worked(self, h: Obj) -> bool:
        """Are the weights of this head printed before it (`A^{(1)} = [..]`, then head_1 = A^{(1)} V_1)?  Then the
        head is an intermediate of the page, not a given (`suppose a second head produced ...`)."""
        k = h.ref.head
        return any(o.ref is not None and "A" in o.ref.nodes and o.ref.head == k and o.a.place.order < h.a.place.order
                   for o in self.objs if o is not h)
