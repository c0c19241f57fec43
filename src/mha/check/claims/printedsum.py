"""A printout of the sums of a matrix printed just before it: the sanity check a notebook prints after the softmax.

    attn_weights = torch.softmax(scores, dim=-1); print(attn_weights)
    print(attn_weights.sum(dim=-1))                 # tensor([1.0000, 1.0000, 1.0000])
    row_sums = np.sum(w, axis=1); print(row_sums)   # [1. 1. 1.]

The code names what is added up and along which axis, so the claim holds whatever the configuration: each printed
sum is the sum of the operand's printed entries, within their rounding and its own.

Identity before verdict: the operand is the latest printout of that name a little before (the same cell or a few
cells back), not re-bound in between, and a matrix whose every row sums to 1 within its rounding: its entries are
then trusted, and a sum that disagrees is the sum's slip.  Where a row of the operand itself does not add up, the
operand is the suspect (claims/rowsum.py may say so) and nothing is said here.  Two thirds of the sums must agree;
a printout of one sum (`w[0].sum()`, `w.sum()`) is judged alone, its code naming it.  The call is read by
readers/pyparse.py's sum_call, as claims/renorm.py reads `w / w.sum(-1)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..infer import Obj
from ..model import half_units
from ..readers.pyparse import parse_code, sum_call
from .common import entry_finding

_CELLS = 3               # how many notebook cells back the operand may stand
_LINES = 60              # ... or lines, in a document without cells


@dataclass
class PrintedSumClaim:
    y: Obj                   # the printed sums
    x: Obj                   # the printed matrix they add up
    want: np.ndarray         # the sums of x's printed entries
    band: np.ndarray         # how far the entries' rounding can move each
    code: str                # the call as written


def printed_sum_claims(objs: list[Obj], hints: list) -> list[PrintedSumClaim]:
    """A claim for each printout whose code sums an earlier printout that adds up row by row."""
    defines = [h for h in hints if h.kind == "define"]
    printed = [o for o in objs if o.val is not None and not o.a.elided]
    out: list[PrintedSumClaim] = []
    for k, y in enumerate(printed):
        code = _sum_code(y, defines)
        call = _call_of(code) if code else None
        if call is None:
            continue
        name, row, axis = call
        x = _operand(y, name, printed[:k], defines)
        if x is None or x.val.ndim != 2 or x.slices != 1 or not _stochastic(x):
            continue
        sums = _sums(x, axis, row)
        if sums is not None and sums[0].size == y.val.size:
            out.append(PrintedSumClaim(y, x, *sums, code))
    return out


def _call_of(code: str) -> tuple[str, int | None, int | None] | None:
    try:
        return sum_call(parse_code(code, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _sum_code(y: Obj, defines: list) -> str | None:
    """The sum call that made the printout: its label (`print(w.sum(dim=-1))`), the last word of a labelled print
    (`print("Row sums:", w.sum(-1))`), the call among its other labels, or the definition of the name it printed (`s = w.sum(1); print(s)`)."""
    label = y.a.label.strip()
    # ... or the code beside its caption (`print("All row sums:", w.sum(dim=-1))`, labelled by the caption, the
    # call kept among the labels)
    for text in (label, label.split()[-1] if label else "", *(t.strip() for t in y.a.labels[1:])):
        if ".sum(" in text:
            return text
    if label.isidentifier():
        for h in reversed(defines):
            same = (h.place.cell == y.a.place.cell) if y.a.place.cell is not None else 0 <= y.a.line - h.place.line <= 5
            if h.value[0].strip() == label and same and "sum(" in h.value[1]:
                return h.value[1].strip()
    return None


def _operand(y: Obj, name: str, before: list[Obj], defines: list) -> Obj | None:
    """The latest printout named `name` shortly before y, with no assignment to the name after its own."""
    for x in reversed(before):
        if x.a.label.strip() != name:
            continue
        if y.a.place.cell is not None and x.a.place.cell is not None:
            if not 0 <= y.a.place.cell - x.a.place.cell <= _CELLS:
                return None
        elif not 0 <= y.a.line - x.a.line <= _LINES:
            return None
        if _rebound(name, x, y, defines):
            return None
        return x if np.isfinite(x.val).all() else None
    return None


def _rebound(name: str, x: Obj, y: Obj, defines: list) -> bool:
    """Is the name assigned again after the operand's printout, in a cell after its own (or a line after it)?"""
    for h in defines:
        if h.value[0].strip() != name:
            continue
        if x.a.place.cell is not None and h.place.cell is not None:
            if x.a.place.cell < h.place.cell <= (y.a.place.cell or 0):
                return True
        elif x.a.line < h.place.line <= y.a.line:
            return True
    return False


def _stochastic(x: Obj) -> bool:
    """Does every row of the printed matrix sum to 1 within the rounding of its entries (and a little more)?"""
    if x.val.shape[1] < 2 or (x.val < 0).any():
        return False
    half = half_units(x.a.rows, decimals_floor=0)
    slack = (half.sum(axis=1) if half is not None else 0) + 1e-6
    return bool((np.abs(x.val.sum(axis=1) - 1.0) <= slack).all())


def _sums(x: Obj, axis: int | None, row: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """(the sums of x's printed entries, how far the entries' rounding can move each)."""
    half = half_units(x.a.rows, decimals_floor=0)
    half = np.zeros_like(x.val) if half is None else half
    if row is not None:
        if not -x.val.shape[0] <= row < x.val.shape[0]:
            return None
        return np.array([x.val[row].sum()]), np.array([half[row].sum()])
    if axis is None:
        return np.array([x.val.sum()]), np.array([half.sum()])
    return x.val.sum(axis=axis), half.sum(axis=axis)


class PrintedSumJudging:
    """Judge methods for PrintedSumClaim."""

    def judge_printed_sum(self, c: PrintedSumClaim) -> None:
        self.n_claims += 1
        want, band = c.want, c.band
        bad = (want < c.y.lo.ravel() - band - 1e-9) | (want > c.y.hi.ravel() + band + 1e-9)
        n = want.size
        self.n_numbers += n
        if not bad.any() or (n > 1 and 3 * (n - bad.sum()) < 2 * n):
            return                   # all agree, or most do not: another operand, not a slip
        where = f"cell {c.x.a.place.cell}, line {c.x.a.line}" if c.x.a.place.cell is not None else f"line {c.x.a.line}"
        cols = c.y.val.shape[1]
        for k in np.nonzero(bad)[0]:
            i, j = divmod(int(k), cols)
            num = c.y.a.rows[i][j]
            self._add_once(entry_finding(num, c.y.a.row_line(i), c.y.a.place.cell, f"[{k + 1}] of {c.code}",
                                         float(want[k]), "softmax", f"the printout at {where} added up ({c.code})"))
