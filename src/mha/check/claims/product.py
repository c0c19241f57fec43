"""A matrix product written out with both factors printed: `[..] × [..] = [..]` in LaTeX, or drawn in plain text
(readers/drawnproduct.py).  The factors on the line are the result's own printed arithmetic, so the result is
judged against their product whatever the configuration: each entry within what the factors' printed rounding
can move it.

Identity first: the result is the product of those factors only when most of it agrees with that product (at
least two entries and two thirds of them); otherwise what is drawn is something else (an elementwise product, a
transposed factor, a sketch) and nothing is judged.  An elementwise product that explains the result as well is
another reading of the same "×": then nothing is judged either.

A dot product written out the same way, two printed vectors and the number they give (`[1, 0, 1] · [1, 1, 0] = 2`,
or a row times a column in LaTeX), is one number computed from its own printed terms, as an arithmetic line is:
it is judged against them directly (`WrittenDotClaim`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import numbers as nb
from ..numbers import Num
from ..objects import Array, Chain, ExprPart, LabelPart
from ..report import Finding, NotChecked
from .common import _chain_text, _simple_kind


@dataclass
class WrittenProductClaim:
    chain: Chain
    left: Array
    right: Array
    result: Array


@dataclass
class WrittenDotClaim:
    chain: Chain
    left: list[Num]
    right: list[Num]
    result: Num


def written_products(c: Chain) -> list:
    """The products of a chain: a LabelPart carrying its two printed factors, then the array it equals; or two
    printed vectors multiplied, then the one number they give."""
    from ..objects import ArrayPart
    out: list = []
    for k in range(len(c.parts) - 1):
        p, q = c.parts[k], c.parts[k + 1]
        if c.rels[k] not in ("=", "≈"):
            continue
        if isinstance(p, LabelPart) and p.operands is not None and isinstance(q, ArrayPart):
            out.append(WrittenProductClaim(c, p.operands[0], p.operands[1], q.array))
            continue
        total = nb.plain_number(q.expr) if isinstance(q, ExprPart) else None
        pair = _vector_pair(p)
        if total is not None and pair is not None and len(pair[0]) == len(pair[1]) >= 2:
            out.append(WrittenDotClaim(c, pair[0], pair[1], total))
    return out


def _vector_pair(p) -> tuple[list[Num], list[Num]] | None:
    """The two printed vectors of [..] · [..] (an array product of a row and a row or a column, or two bracketed
    vectors multiplied in an expression)."""
    if isinstance(p, LabelPart) and p.operands is not None:
        vs = [_flat(a) for a in p.operands]
        return (vs[0], vs[1]) if vs[0] is not None and vs[1] is not None else None
    if isinstance(p, ExprPart) and isinstance(p.expr, nb.Op) and p.expr.op == "*" and len(p.expr.args) == 2 and \
            all(isinstance(x, nb.Vec) for x in p.expr.args):
        return list(p.expr.args[0].cells), list(p.expr.args[1].cells)
    if isinstance(p, (LabelPart, ExprPart)) and getattr(p, "operands", None) is None:
        m = _WRITTEN_DOT.fullmatch(p.text.replace(" ", ""))
        if m:
            return [Num.parse(x) for x in m.group(1).split(",")], [Num.parse(x) for x in m.group(2).split(",")]
    return None


# `[1,0,1,0]·[1,1,1,1]ᵀ`, `(1,0,1)·(1,1,0)`: two bracketed rows of numbers and a dot, the second maybe transposed
_NUMS = r"(-?\d+(?:\.\d+)?(?:,-?\d+(?:\.\d+)?)+)"
_WRITTEN_DOT = re.compile(rf"[\[(]{_NUMS}[\])](?:\*|·|⋅|\\cdot)[\[(]{_NUMS}[\])](?:\^\{{?(?:T|\\top)\}}?|ᵀ)?")


def _flat(a: Array) -> list[Num] | None:
    """A row (1×n) or a column (n×1) as its numbers."""
    if any(r is None or any(n is None for n in r) for r in a.rows):
        return None
    if len(a.rows) == 1:
        return list(a.rows[0])
    if all(len(r) == 1 for r in a.rows):
        return [r[0] for r in a.rows]
    return None


def _values(a: Array) -> tuple[np.ndarray, np.ndarray] | None:
    """(values, half-units of their printed precision) of a full numeric array."""
    if any(r is None or any(n is None for n in r) for r in a.rows) or len({len(r) for r in a.rows}) != 1:
        return None
    v = np.array([[n.value for n in r] for r in a.rows], dtype=float)
    h = np.array([[n.half for n in r] for r in a.rows], dtype=float)
    return (v, h) if np.all(np.isfinite(v)) and np.all(np.isfinite(h)) else None


def product_check(left: Array, right: Array, result: Array):
    """(exact product, allowed difference, agreeing entries) or None when the shapes are not a product's."""
    got = [_values(a) for a in (left, right, result)]
    if any(g is None for g in got):
        return None
    (lv, lh), (rv, rh), (cv, ch) = got
    if lv.shape[1] != rv.shape[0] or cv.shape != (lv.shape[0], rv.shape[1]):
        return None
    exact = lv @ rv
    # how far the factors' own rounding can move each entry, plus the result's own rounding
    slack = np.abs(lv) @ rh + lh @ np.abs(rv) + lh @ rh + ch
    slack = slack * (1 + 1e-9) + 1e-9 * np.maximum(1.0, np.abs(exact))
    agree = np.abs(cv - exact) <= slack
    if cv.shape == lv.shape == rv.shape:
        elementwise = np.abs(cv - lv * rv) <= (np.abs(lv) * rh + lh * np.abs(rv) + lh * rh + ch) * (1 + 1e-9) + 1e-9
        if elementwise.sum() >= agree.sum():
            return exact, slack, None             # "×" read elementwise explains it as well: no verdict
    return exact, slack, agree


def dot_judged(left, lh, right, rh, result: Num) -> tuple[float, bool] | None:
    """(the dot product of two printed vectors, whether the printed result is it within the vectors' rounding
    (half-units lh, rh; zero for exact givens) and its own); None when a value is not finite."""
    lv, rv = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    if not (np.all(np.isfinite(lv)) and np.all(np.isfinite(rv)) and np.all(np.isfinite(lh + rh))):
        return None
    x = float(lv @ rv)
    slack = float(np.abs(lv) @ rh + lh @ np.abs(rv) + lh @ rh) + result.half
    return x, abs(result.value - x) <= slack * (1 + 1e-9) + 1e-9 * max(1.0, abs(x))


class WrittenProductJudging:
    """Judge methods for WrittenProductClaim and WrittenDotClaim (a mixin of Judge)."""

    def judge_written_dot(self, c: WrittenDotClaim) -> None:
        if c.chain.context.partial:
            return
        lh = np.array([n.half for n in c.left]) * (not self._given_vector(c.left, c.chain))
        rh = np.array([n.half for n in c.right]) * (not self._given_vector(c.right, c.chain))
        self.judge_dot(c.chain, _chain_text(c.chain), (c.left, lh), (c.right, rh), c.result,
                       c.chain.context.step or "scores", "the vectors printed with it give")

    def judge_dot(self, chain: Chain, name: str, left: tuple, right: tuple, result: Num, step: str, said: str) -> None:
        """One printed number that is the dot product of two printed vectors, each (numbers, their half-units)."""
        got = dot_judged([n.value for n in left[0]], left[1], [n.value for n in right[0]], right[1], result)
        if got is None:
            return
        x, holds = got
        self.n_claims += 1
        self.n_numbers += 1
        if holds:
            return
        kind = _simple_kind(result, x) if _simple_kind(result, x) != "wrong_value" else "arithmetic"
        self.add(Finding(result.line or chain.place.line, chain.place.cell, name, result.text, x, result.rounded(x),
                         step, f"arithmetic slip: {said} {result.rounded(x)}", kind), merge=True)

    def _given_vector(self, v: list[Num], chain: Chain) -> bool:
        """A vector of short numbers (one decimal at most) printed before the line that multiplies it, alone or as a
        row of a matrix (`"like" -> [0.7, 0.5, 0.9]`, then `[0.2, 0.3, 0.1] * [0.7, 0.5, 0.9] = 0.41`), is a given,
        exact as written: its entries are not roundings that could move the product."""
        if any((n.decimals or 0) > 1 for n in v):
            return False
        key = tuple(n.value for n in v)
        at = (chain.place.cell or 0, chain.place.line)
        return any((a.place.cell or 0, a.line) < at and any(
            r is not None and None not in r and tuple(n.value for n in r) == key for r in a.rows)
            for a in self.doc.arrays)

    def judge_written_product(self, c: WrittenProductClaim) -> None:
        got = product_check(c.left, c.right, c.result)
        if got is None or c.chain.context.partial:
            return
        exact, slack, agree = got
        a = c.result
        if agree is None:
            return
        n = agree.size
        if agree.sum() < max(2, 2 * n / 3):
            if self._one_factor_cell(c, slack):
                return
            self.not_checked.append(NotChecked(
                a.line, a.place.cell, f"{a.label or 'product'} ({a.rows and len(a.rows)}×{len(a.rows[0])}, line "
                f"{a.line})", f"only {int(agree.sum())} of {n} entries are the product of the factors printed "
                "before it, so it is not read as that product; no entry is judged"))
            return
        self.n_claims += 1
        # judged as the product it is written as: no longer "not checked" for matching no intermediate
        self.not_checked = [x for x in self.not_checked if (x.line, x.cell) != (a.line, a.place.cell)
                            or "matches no intermediate" not in x.reason]
        step = c.chain.context.step or "arithmetic"
        for (i, j), ok in np.ndenumerate(agree):
            self.n_numbers += 1
            if ok:
                continue
            num = a.rows[i][j]
            x = float(exact[i, j])
            self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{a.label or 'product'}[{i + 1},{j + 1}]",
                             num.text, x, num.rounded(x), step,
                             f"arithmetic slip: the factors printed with it give {num.rounded(x)}",
                             _simple_kind(num, x) if _simple_kind(num, x) != "wrong_value" else "arithmetic"),
                     merge=True)

    def _one_factor_cell(self, c: WrittenProductClaim, slack: np.ndarray) -> bool:
        """`[0.13163, 0.43194, 0.43194] × V = [1.8639, 6.3194, 1.7042]`: a result that disagrees with its factors
        everywhere, yet agrees everywhere with one cell of the row factor changed (the result fixes that cell, each
        column alone, to one value): the slip is in that cell, a copy of a weight, and is reported there.  Not when
        that value is 0: a result that leaves out one term (`[0.12 0.76 0.12] V = [0.24, 3.16]`, the third row of V
        forgotten) fixes the cell to 0, and the slip is in the result, not in a weight the page prints elsewhere."""
        got = [_values(a) for a in (c.left, c.right, c.result)]
        (lv, lh), (rv, _), (cv, _) = got
        if lv.shape[0] != 1 or cv.shape[0] != 1 or cv.shape[1] < 2:
            return False
        for k in range(lv.shape[1]):
            col = np.abs(rv[k]) > 1e-9
            if col.sum() < 2:
                continue
            rest = lv[0] @ rv - lv[0, k] * rv[k]
            w = (cv[0] - rest)[col] / rv[k][col]
            tol = (slack[0][col] / np.abs(rv[k][col]))
            if np.ptp(w) > 2 * tol.min():
                continue
            x = float(np.median(w))
            num = c.left.rows[0][k]
            if num is None or num.contains(x, float(lh[0, k])):
                continue
            if abs(x) <= 2 * tol.min():
                continue            # the result is the product without term k: a term left out, not a weight of 0
            self.n_claims += 1
            self.n_numbers += cv.size + 1
            self.add(Finding(num.line or c.left.row_line(0), c.left.place.cell,
                             f"factor [{k + 1}] of {c.chain.text[:50]}", num.text, x, num.rounded(x),
                             c.chain.context.step or "weighted_sum",
                             f"the result written with it, and the factor's other entries, give {num.rounded(x)}",
                             _simple_kind(num, x)))
            return True
        return False
