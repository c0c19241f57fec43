"""The reading claim: one entry read out in words ("token 1's weight on token 2 is 0.41", "词 2 对 词 3 的分数: 0.27")."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import labels as lb
from ..infer import Hit
from ..objects import Reading
from ..report import Finding, NotChecked
from .common import _band


@dataclass
class ReadingClaim:
    reading: Reading


class ReadingJudging:
    """Judge methods for ReadingClaim."""

    def judge_reading(self, r: Reading) -> None:
        if self.vs is None or r.row is None or r.col is None:
            return
        words = r.words.lower()
        fam = {"A"} if re.search(r"weight|权重", words) else {"QKt", "S"}
        i, j = r.row - 1, r.col - 1
        head = r.context.head - 1 if r.context.head is not None else None
        cands = [v for v in self.vs.views if v.node in fam and not v.variant and v.h is not None
                 and (head is None or v.h == head) and i < v.M.shape[0] and j < v.M.shape[1]
                 and (v.b or 0) == 0]
        if not cands:
            return
        self.n_claims += 1
        self.n_numbers += 1
        if any(r.value.contains(float(v.M[i, j]), _band(v, i, j)) for v in cands):
            return
        if head is None:
            self.not_checked.append(NotChecked(r.place.line, r.place.cell, r.text, "which head is not said"))
            self.n_claims -= 1
            return
        if self.outside(r.place, r.text):
            self.n_claims -= 1               # a reading in another example's section (claims/scope.py)
            self.n_numbers -= 1
            return
        v = cands[0]
        x = float(v.M[i, j])
        hit = Hit(v, "full", None, np.zeros((1, 1), bool), v.M)
        note = self.rounded_predecessor(hit, i, j, r.value)
        if note:
            self.add(Finding(r.place.line, r.place.cell, f"{lb.SHOWN[v.node]}^({v.h + 1})[{i + 1},{j + 1}]",
                             r.value.text, x, r.value.rounded(x), self.step_of(v.node), note, "rounded_sum", "note"))
            return
        cause, kind = self.cell_cause(hit, i, j, r.value, None)
        self.add(Finding(r.place.line, r.place.cell, f"{lb.SHOWN[v.node]}^({v.h + 1})[{i + 1},{j + 1}] ({r.text})",
                         r.value.text, x, r.value.rounded(x), self.step_of(v.node), cause, kind))
