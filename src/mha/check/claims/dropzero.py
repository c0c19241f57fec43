"""Dropout keeps a zero zero: a notebook prints `dropout(attn_weights)` after attn_weights was made the causal
weights, and the printout shows numbers where the weights are 0.  Whatever the random mask and the rate, dropout
multiplies each entry by 0 or by 1/(1-p), so an entry that is 0 before it is 0 after it.  A printout that is not
is an output left from an earlier run (the weights before the mask), and the entries that break the rule are its
wrong numbers.

Identity before verdict: the printout's code names the variable (`dropout(attn_weights)`, `self.attn_dropout(w)`),
and the variable's value is its latest printout above it (same name, same shape), with no assignment to that name
in the code between them.  Nothing depends on the mask: only entries whose input prints as 0 are judged, and only
when they exceed any rate's rescaling of that printed zero (a rate up to 0.9 multiplies by 10 at most).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..objects import Array
from ..report import Finding

_CALL = re.compile(r"(?:^|\.)\w*dropout\w*\(\s*([A-Za-z_]\w*)\s*(?:,[^()]*)?\)$", re.I)
MAX_SCALE = 10.0         # 1/(1-p) for a rate up to 0.9


@dataclass
class DropZeroClaim:
    y: Array                 # the printout after dropout
    x: Array                 # the variable's latest printout before it
    name: str                # the variable
    earlier: Array | None    # an earlier printout of the variable that the kept entries are a multiple of


def _base(target: str) -> str:
    m = re.match(r"\s*([A-Za-z_]\w*)", target)
    return m.group(1) if m else ""


def _order(a: Array) -> tuple[int, int]:
    return (a.place.cell or 0, a.line)


def _kept_multiple(y: Array, z: Array) -> bool:
    """Are the entries of y 0 or one common multiple (at least 1) of z's, with at least three kept?  Each kept
    entry bounds the multiple by its printed interval and z's; the bounds must leave a common one."""
    lo, hi, kept = 1.0, float("inf"), 0
    for ry, rz in zip(y.rows, z.rows):
        for a, b in zip(ry, rz):
            if a.value == 0:
                continue
            if b.value <= 0 or a.value <= 0 or b.lo <= 0:
                return False
            lo, hi = max(lo, a.lo / b.hi), min(hi, a.hi / b.lo)
            kept += 1
    return kept >= 3 and lo <= hi + 1e-12


def drop_zero_claims(doc) -> list[DropZeroClaim]:
    """Each notebook printout of dropout(NAME) with NAME's latest printout above it holding a zero."""
    arrays = [a for a in doc.arrays if not a.elided and a.numbers and a.place.cell is not None]
    hints = doc.hints
    defines = [(h.place.cell or 0, _base(h.value[0])) for h in hints if h.kind == "define"]
    out = []
    for y in arrays:
        m = _CALL.search(y.label.replace(" ", ""))
        if m is None:
            continue
        name = m.group(1)
        same = [a for a in arrays if a.label == name and a.shape == y.shape and _order(a) < _order(y)]
        if not same:
            continue
        x = max(same, key=_order)
        # rebound between the printout of x and the dropout: x is no longer its value
        if any(x.place.cell < cell <= y.place.cell and base == name for cell, base in defines):
            continue
        if not any(n.value == 0 for n in x.numbers):
            continue
        earlier = next((z for z in sorted(same, key=_order, reverse=True) if z is not x and _kept_multiple(y, z)),
                       None)
        out.append(DropZeroClaim(y, x, name, earlier))
    return out


class DropZeroJudging:
    """Judge methods for DropZeroClaim."""

    def judge_drop_zero(self, c: DropZeroClaim) -> None:
        self.n_claims += 1
        zero = f"dropout keeps the zeros of {c.name} (cell {c.x.place.cell}) zero"
        up = f"dropout keeps an entry of {c.name} (cell {c.x.place.cell}) or scales it up by 1/(1-p), never down"
        why = ""
        if c.earlier is not None:
            why = (f"; the kept entries are a multiple of {c.name} as printed in cell {c.earlier.place.cell}, "
                    f"before it was rebound: an output left from an earlier run")
        for i, (ry, rx) in enumerate(zip(c.y.rows, c.x.rows)):
            for j, (a, b) in enumerate(zip(ry, rx)):
                if b.value != 0:
                    # kept entries are scaled up by 1/(1-p) >= 1: one below its input was not dropped out of it
                    if a.value != 0 and b.value > 0 and 0 < a.hi < b.lo:
                        self.n_numbers += 1
                        self._add_once(Finding(a.line or c.y.row_line(i), c.y.place.cell,
                                               f"{c.y.label}[{i + 1},{j + 1}]", a.text, None, None, "dropout",
                                               up + why,
                                               "wrong_value"))
                    continue
                self.n_numbers += 1
                if abs(a.value) - a.half <= MAX_SCALE * b.half + 1e-12:
                    continue
                self._add_once(Finding(a.line or c.y.row_line(i), c.y.place.cell, f"{c.y.label}[{i + 1},{j + 1}]",
                                       a.text, 0.0, a.rounded(0.0), "dropout", zero + why, "wrong_value"))
