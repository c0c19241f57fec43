"""Stale printouts: a notebook run out of order (a cell edited and re-run, the cells after it not).

A printout then disagrees with the code of its own cell applied to the printouts above it, and whatever later cells
compute from it disagrees too.  A careful reader does not take each disagreeing entry for a slip: the printout that
mostly disagrees with its own code is named once as stale, and a printout whose code takes such a printout as an
operand is not judged entry by entry either ("computed from the stale printout at cell 4").  Only printouts that
mostly disagree start this: one that most of its entries identify still has its slips found.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..infer import Obj, alignments
from .formula import _definition, matmul_of
from .identity import identifies
from .renorm import agreement, divided_by_own_sum

_NOT_OPERANDS = frozenset({"np", "torch", "math", "F", "nn", "self", "dim", "axis", "keepdim", "keepdims", "T",
                           "True", "False", "None", "float", "int", "inf"})


def operand_names(rhs: str) -> list[str]:
    """The variables an expression reads: names not called and not attributes.

    >>> operand_names("np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)"), operand_names("A @ X.T")
    (['S'], ['A', 'X'])
    """
    out: list[str] = []
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)(?!\w)(?!\s*\()(?!\s*=[^=])", rhs):
        name = m.group(1)
        if name not in _NOT_OPERANDS and name not in out:
            out.append(name)
    return out


def _bound_again(name: str, y: Obj, rhs: str, defines: list) -> bool:
    """The operand is given a new value in the printout's own cell before the code that prints it (`w = softmax(s)`,
    `print(w)`, then `w = [[0.0, 0.5, 0.5], ...]` "for readability", `w = torch.tensor(w)`): the value printed first
    is not what that code reads."""
    cell = y.a.place.cell
    if cell is None:
        return False
    mine = [h for h in defines if h.place.cell == cell and h.value[0].strip() == name]
    own = [h for h in mine if h.value[1].strip() == rhs.strip()]
    return len(mine) - len(own) >= 2


def _rebound_between(name: str, x: Obj, y: Obj, defines: list) -> bool:
    """Is the operand given a new value by code between its printout and this one (`attn_scores = qs @ ks.T` in the
    code block that prints the new weights, far below the first printout of attn_scores)?  Then that printout is
    not what the code read, and the two disagreeing says nothing of a stale output."""
    return any(h.value[0].strip() == name and x.a.place.order < h.place.order < y.a.place.order for h in defines)


class StaleJudging:
    """Judge methods: which printouts are stale, or computed from a stale one (self.stale: id -> reason)."""

    def mark_stale(self, plans: dict[int, Any]) -> None:
        self.stale: dict[int, str] = {}
        defines = [h for h in self.doc.hints if h.kind == "define"]
        if not defines:
            return
        outs = [o for o in self.objs if o.val is not None and o.a.place.where == "output" and o.a.label]
        for y in outs:
            rhs = _definition(y, defines)
            if rhs is None:
                continue
            for name in operand_names(rhs):
                x = self._printed_before(y, name, outs)
                if x is None or _bound_again(name, y, rhs, defines) or _rebound_between(name, x, y, defines):
                    continue
                if x.a.id in self.stale and plans.get(y.a.id, {}).get("kind", "holds") != "holds":
                    self.stale[y.a.id] = (f"computed (`{y.a.label.strip()} = {rhs.strip()}`) from the printout of "
                                          f"{name} at {x.a.place}, which is stale")
                    break
                if self._stale_base_explained(x, plans) and self._disagrees(y, plans) and not \
                        self._matches_whole(y) and not self._product_of_printouts(y, rhs, outs) and \
                        not _over_own_sum(rhs, name, x, y):
                    code = f"`{y.a.label.strip()} = {rhs.strip()}`"
                    self.stale[y.a.id] = (
                        f"its own code ({code}) applied to the printout of {name} at {x.a.place} gives it: that "
                        "softmax, not the configuration's step (the scores as printed, another scale)"
                        if _softmax_of(rhs, name, x, y) else
                        f"it mostly disagrees with its own code ({code}) applied to the printout of {name} at "
                        f"{x.a.place}, which the configuration explains: a stale output (a cell run out of order?)")
                    break

    def _product_of_printouts(self, y: Obj, rhs: str, outs: list[Obj]) -> bool:
        """`out = weights @ V` whose printout is, mostly, the product of the two printouts above it: the cell did
        what its code says (from weights the configuration does not explain, a softmax of the page's own say), so
        it is no stale output."""
        return matmul_of(y, rhs, lambda name: self._printed_before(y, name, outs)) is not None

    def _printed_before(self, y: Obj, name: str, outs: list[Obj]) -> Obj | None:
        key = (y.a.place.cell or 0, y.a.line)
        before = [o for o in outs if o.a.label.strip() == name and (o.a.place.cell or 0, o.a.line) < key]
        return before[-1] if before else None

    def _stale_base_explained(self, o: Obj, plans: dict[int, Any]) -> bool:
        """Is this printout an input the configuration takes, or one it explains whole?  (A printout it does not
        identify, such as weights rounded "for readability", is no ground for calling what follows it stale.)"""
        plan = plans.get(o.a.id)
        return o.a.id in self.uses or (plan is not None and plan["kind"] == "holds")

    def _matches_whole(self, o: Obj) -> bool:
        """Does every entry match some intermediate of the configuration?  Then the printout is what its code
        computes under another name (`attn_weights = q @ k.T` printed the raw scores), not a stale output."""
        return self.vs is not None and any(h.all for h in alignments(o, self.vs))

    def _disagrees(self, o: Obj, plans: dict[int, Any]) -> bool:
        """Does the configuration leave most of this printout unexplained (not an input it takes)?"""
        if o.a.id in self.uses:
            return False
        plan = plans.get(o.a.id)
        if plan is None or plan["kind"] == "holds":
            return False
        if plan["kind"] != "wrong":          # attributed to an intermediate (by its name or most of its cells)
            return False
        hit = plan.get("hit")
        if hit is None:
            return True
        # mostly: more of it wrong than right, and two entries at least (a vector of two with one slip is a slip,
        # judged by its name and printed predecessors, not a stale printout)
        wrong = o.val.size - hit.n_ok
        return not identifies(o, hit) and wrong >= 2 and wrong > hit.n_ok


def _softmax_of(rhs: str, name: str, x: Obj, y: Obj) -> bool:
    """`W = torch.softmax(S, dim=1)` (or of S over a scale) over a printed S: does the softmax of S along its rows give
    the printout W, within the rounding S carries (each weight moves by up to 2·p·half)?  Then the code did what it
    says, and the printout is no stale output."""
    m = re.fullmatch(rf"\s*(?:torch\.|F\.|nn\.functional\.|np\.|scipy\.special\.)?softmax\(\s*{re.escape(name)}\s*"
                     rf"(/\s*[\w.]+(?:\s*\*\*\s*0?\.5|\s*\([^()]*\))?)?\s*"
                     rf"(?:,\s*(?:dim|axis)\s*=\s*(-1|1|0)\s*)?\)\s*", rhs)
    if m is None:
        return False
    if x.val is None or y.val is None or x.val.shape != y.val.shape or x.val.ndim != 2 or x.hi is None:
        return False
    # `softmax(scores / d_k**0.5)`: the divisor a size's root or the size (searched, as claims/scaledcall.py does)
    scales = [1.0] if m.group(1) is None else \
        [1 / math.sqrt(d) for d in range(1, 1025)] + [1 / d for d in range(2, 1025)]
    # the axis: along the rows, or down the columns for `axis=0`, or, with none written, a softmax the page may
    # define for itself (`def softmax(x): return np.exp(x) / np.sum(np.exp(x), axis=0)`: column by column)
    axes = {None: (1, 0), "0": (0,)}.get(m.group(2), (1,))
    return any(_gives(x, y, c, axis) for c in scales for axis in axes)


def _gives(x: Obj, y: Obj, c: float, axis: int = 1) -> bool:
    with np.errstate(invalid="ignore"):
        s = c * x.val - np.max(c * x.val, axis=axis, keepdims=True)
        p = np.exp(s) / np.exp(s).sum(axis=axis, keepdims=True)
    half = c * (x.hi - x.lo) / 2
    room = 2 * p * np.nan_to_num(half, posinf=0.0).max(axis=axis, keepdims=True) + (y.hi - y.lo) / 2 + 1e-12
    return bool(np.all(np.abs(p - y.val) <= room * (1 + 1e-9)))


def _over_own_sum(rhs: str, name: str, x: Obj, y: Obj) -> bool:
    """`w = s / s.sum()` (or `s / torch.sum(s, dim=-1)`) over a printed s: is the printout s over its own (row) sums,
    within the rounding s carries?  Then the code did what it says (a normalisation that is not the softmax), and
    the printout is no stale output."""
    got = divided_by_own_sum(rhs)
    if got is None or got[0] != name or x.val is None or y.val is None or x.val.shape != y.val.shape or \
            x.val.ndim != 2 or x.slices != 1 or y.lo is None:
        return False
    if got[1] != 1 and x.val.shape[0] != 1:
        return False                   # a whole-matrix or column sum: not the rows' normalisation (one row: any)
    ok, live, bad, _ = agreement(x, y)
    return live > 0 and not bad.any()
