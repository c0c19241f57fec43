"""The softmax pair: a row of scores and, beside it or on the next line, its softmax ("scores | softmax" table rows,
`Softmax = [...]` under `Scores = [...]`).  The pair states y = softmax(x) whatever the configuration, so it is
judged against its own printed scores, as an arithmetic line is, and not against the inferred trace (a document
often shows the softmax of unscaled scores beside the scaled one, to compare them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..infer import Obj
from ..model import half_units
from ..report import Finding
from .common import _simple_kind


@dataclass
class SoftmaxPairClaim:
    x: Obj           # the scores as printed
    y: Obj           # their softmax as printed


def softmax_pairs(objs: list[Obj]) -> list[SoftmaxPairClaim]:
    """Each vector (or column of a table, rows stacked) named as weights or softmax whose neighbour just before it,
    on its line or the line above, has as many scores."""
    out = []
    grids = [o for o in objs if o.val is not None and o.slices == 1 and o.val.shape[1] >= 2 and np.isfinite(o.val).all()
             and not o.a.elided]
    for k, y in enumerate(grids):
        if not _names(y, {"A"}) or k == 0:
            continue
        x = grids[k - 1]
        same = x.a.place.cell == y.a.place.cell and 0 <= y.a.line - x.a.line <= 1
        if same and x.val.shape == y.val.shape and _names(x, {"QKt", "S"}) and (y.val >= 0).all() \
                and np.all(np.abs(y.val.sum(axis=1) - 1.0) <= 0.02 * y.val.shape[1]):
            out.append(SoftmaxPairClaim(x, y))
    return out


def _names(o: Obj, nodes: set[str]) -> bool:
    return any(set(r.nodes) & nodes for r in o.refs)


class SoftmaxJudging:
    """Judge methods for SoftmaxPairClaim."""

    def judge_softmax_pair(self, c: SoftmaxPairClaim) -> None:
        self.n_claims += 1
        for i, row in enumerate(c.y.a.rows):
            x = c.x.val[i]
            e = np.exp(x - x.max())
            p = e / e.sum()
            # how far the rounding of the printed scores moves each weight: |dp_j/dx_k| = p_j |δ_jk - p_k|; scores
            # printed to fewer than 3 decimals are exact givens, as inputs are (model.half_units); a difference
            # within what the rounding of longer ones explains is a note
            half = half_units([c.x.a.rows[i]])
            half = np.zeros(len(p)) if half is None else half[0]
            band = 1.25 * np.abs(np.diag(p) - np.outer(p, p)) @ half
            for j, num in enumerate(row or []):
                if num is None:
                    continue
                self.n_numbers += 1
                exact = float(p[j])
                if num.contains(exact):
                    continue
                note = num.contains(exact, float(band[j]))
                self.add(Finding(num.line or c.y.a.row_line(i), c.y.a.place.cell,
                                 f"softmax of line {c.x.a.row_line(i)}[{j + 1}]", num.text, exact, num.rounded(exact),
                                 "softmax", "follows from the rounded scores printed beside it" if note else
                                 f"the softmax of the scores printed beside it gives {num.rounded(exact)}",
                                 "rounded_sum" if note else _simple_kind(num, exact), "note" if note else "error"))
