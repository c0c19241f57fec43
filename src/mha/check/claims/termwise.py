"""The term-by-term claim: a weighted sum of vectors written out one step at a time,

    0.5 × [1.0, 2.0] + 0.3 × [3.0, 4.0] + 0.2 × [5.0, 6.0] = [0.5, 1.0] + [0.9, 1.2] + [1.0, 1.2] = [2.4, 3.4]

where each bracket of the second sum is the product written in the same place of the first.  The line carries
its own identity: a product term is judged against its own printed factors (interval arithmetic, inputs printed
to fewer decimals than the result taken as exact), and only when the other terms of the line agree with theirs
(at least two entries, two thirds of them), so that the terms are known to stand in the same order."""

from __future__ import annotations

from dataclasses import dataclass

from .. import numbers as nb
from ..objects import Chain, ExprPart
from ..report import Finding
from .common import _chain_text, _simple_kind


@dataclass
class TermwiseClaim:
    chain: Chain
    k: int            # parts k and k + 1 are sums of as many vector terms; k + 1 writes each product of k out


def termwise_claims(chains: list[Chain]) -> list[TermwiseClaim]:
    out = []
    for c in chains:
        for k in range(len(c.parts) - 1):
            a, b = c.parts[k], c.parts[k + 1]
            if not (isinstance(a, ExprPart) and isinstance(b, ExprPart)):
                continue
            ta, tb = nb.terms_of(a.expr), nb.terms_of(b.expr)
            if len(ta) < 2 or len(ta) != len(tb) or not all(isinstance(t, nb.Vec) for t in tb):
                continue
            faces = [nb.face_vector(t) for t in ta]
            if any(f is None or len(f) != len(t.cells) for f, t in zip(faces, tb)):
                continue
            if all(isinstance(t, nb.Vec) for t in ta):
                continue                       # the same brackets twice: nothing is computed between them
            out.append(TermwiseClaim(c, k))
    return out


def _component(e, j: int):
    """Entry j of a vector-valued term, as a scalar expression (0.2 × [5.0, 6.0], j = 1 -> 0.2 × 6.0)."""
    if isinstance(e, nb.Vec):
        return nb.Lit(e.cells[j])
    if isinstance(e, nb.Op):
        return nb.Op(e.op, tuple(_component(a, j) for a in e.args))
    return e


def _agrees(term, j: int, cell: nb.Num) -> bool | None:
    """Does the printed entry overlap what its own factors give? None when they cannot be evaluated."""
    try:
        iv = nb.evaluate(nb.exact_below(_component(term, j), cell.decimals or 0))
    except (ArithmeticError, ValueError, ZeroDivisionError):
        return None
    eps = 1e-9 * max(1.0, abs(iv.value))
    return iv.lo <= cell.hi + eps and cell.lo - eps <= iv.hi


class TermwiseJudging:
    """Judge methods for TermwiseClaim."""

    def judge_termwise(self, c: TermwiseClaim) -> None:
        if c.chain.context.partial:
            return
        ta = nb.terms_of(c.chain.parts[c.k].expr)
        tb = nb.terms_of(c.chain.parts[c.k + 1].expr)
        results = []                                   # (term, its place, entry, printed, agrees)
        for i, (t, v) in enumerate(zip(ta, tb)):
            for j, cell in enumerate(v.cells):
                ok = _agrees(t, j, cell)
                if ok is None:
                    return
                results.append((t, i, j, cell, ok))
        self.n_claims += 1
        wrong = False
        for n, (t, i, j, cell, ok) in enumerate(results):
            self.n_numbers += 1
            others = [r[4] for m, r in enumerate(results) if m != n]
            if ok or sum(others) < 2 or 3 * sum(others) < 2 * len(others):
                continue
            exact = nb.face_vector(t)[j]
            wrong = True
            kind = _simple_kind(cell, exact)
            self.add(Finding(cell.line or c.chain.place.line, c.chain.place.cell,
                             f"{_chain_text(c.chain)} [term {i + 1}, entry {j + 1}]", cell.text, exact,
                             cell.rounded(exact), "weighted_sum",
                             f"arithmetic slip: its factors give {cell.rounded(exact)}",
                             kind if kind != "wrong_value" else "arithmetic"))
        if wrong:
            # the sum after it adds a wrong term: one slip, one finding (claims/vector.py reads this)
            self.termwise_slips = getattr(self, "termwise_slips", set()) | {(id(c.chain), c.k + 1)}
