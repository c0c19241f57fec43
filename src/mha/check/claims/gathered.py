"""Results gathered into one vector: a page works the weights out one line each (`1.35 / 2.94 = 0.46`,
`0.90 / 2.94 = 0.31`, `0.69 / 2.94 = 0.23`) and then lists them (`final weights: [0.46, 0.31, 0.23]`).  The list
quotes those lines, in their order; an entry that differs from its line is a copy slip, whatever the
configuration (the page may have none, or the list may not match its rounded weights).

Identity before verdict:
* three or more worked lines in a row, each holding by its own arithmetic (at face value, within its rounding),
  just above the list (at most GAP lines between them, in the same cell), and as many entries as lines;
* every entry but one is the very number its line gives, printed alike (same text);
* the one that differs is printed to as many decimals as its line's result, and differs from it by more than
  the rounding of either: then it is one slip, reported once.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import numbers as nb
from ..numbers import Num
from ..objects import Array, Chain, ExprPart
from ..report import Finding
from .array import _view_index
from .common import _simple_kind

GAP = 4          # lines from the last worked line to the list
GAP_EXPS = 8     # ... from the last exponential to the probabilities (a heading and a fence between them)


@dataclass
class GatheredClaim:
    array: Array
    entry: int | None           # the entry that differs (None: every entry is its line's)
    source: Chain               # its worked line
    value: Num                  # that line's result (or the share its exponential gives)
    normalised: bool = False    # the list is the exponentials above over their sum


def _worked(c: Chain) -> Num | None:
    """... = arithmetic = number, with the arithmetic giving the number at face value (within its rounding)."""
    if len(c.parts) < 2 or not isinstance(c.parts[-1], ExprPart) or not isinstance(c.parts[-2], ExprPart):
        return None
    n, e = nb.plain_number(c.parts[-1].expr), c.parts[-2].expr
    if n is None or n.decimals is None or nb.has_symbols(e) or nb.is_plain_number(e):
        return None
    try:
        got = nb.evaluate(e)
    except (ArithmeticError, OverflowError, ValueError):
        return None
    return n if got.lo <= n.hi + 1e-9 and n.lo <= got.hi + 1e-9 else None


def gathered_claims(chains: list[Chain], arrays: list[Array]) -> list[GatheredClaim]:
    worked = [(c, n) for c in chains if (n := _worked(c)) is not None]
    out = []
    for a in arrays:
        if not a.is_vector or len(a.rows) != 1 or a.n_cols < 3 or any(x is None for x in a.rows[0]):
            continue
        line, cell = a.place.line, a.place.cell
        before = [(c, n) for c, n in worked if c.place.cell == cell and c.place.line < line]
        if len(before) < a.n_cols:
            continue
        run = before[-a.n_cols:]
        lines = [c.place.line for c, _ in run]
        exps = all(_is_exp(c) for c, _ in run)
        if line - lines[-1] > (GAP_EXPS if exps else GAP) or any(y - x != 1 for x, y in zip(lines, lines[1:])) or \
                any(lines[0] <= c.place.line < line for c, _ in before[:-a.n_cols]):
            continue                 # the lines must be consecutive, the list right after them
        if exps and not any(x.text.strip() == n.text.strip() for x, (_, n) in zip(a.rows[0], run)):
            got = _normalised(a, run)          # exp(1.5) ≈ 4.48, ... then "probabilities: [0.67, 0.19, 0.13]"
            if got is not None:
                out.append(got)
            continue
        differ = [k for k, (x, (_, n)) in enumerate(zip(a.rows[0], run)) if x.text.strip() != n.text.strip()]
        if not differ:
            out.append(GatheredClaim(a, None, run[0][0], run[0][1]))      # the list quotes them all: it holds
            continue
        if len(differ) != 1:
            continue
        k = differ[0]
        x, (src, n) = a.rows[0][k], run[k]
        if x.decimals != n.decimals or x.contains(n.value) or n.contains(x.value):
            continue
        out.append(GatheredClaim(a, k, src, n))
    return out


def _step(c: Chain) -> str:
    """A worked line's step: a ratio or an exponential is the softmax's; else the step its context names."""
    e = c.parts[-2].expr
    if isinstance(e, nb.Op) and e.op in ("/", "exp"):
        return "softmax"
    return c.context.step or "scores"


def _is_exp(c: Chain) -> bool:
    e = c.parts[-2].expr
    return isinstance(e, nb.Op) and e.op == "exp"


def _normalised(a: Array, run: list[tuple[Chain, Num]]) -> GatheredClaim | None:
    """The list after n exponentials, each its exponential over their sum (a row of probabilities, entries in
    [0, 1]): a claim when every entry but at most one is that share, within the rounding of the printed
    exponentials (a slip moves the row's sum off 1, so the sum is no test)."""
    xs = a.rows[0]
    if any(not 0 <= x.value <= 1 for x in xs):
        return None
    total = sum(n.value for _, n in run)
    lo_hi = []
    for _, n in run:               # the share's range over the exponentials' own rounding
        others = total - n.value
        lo_hi.append((n.lo / (n.lo + others + sum(m.half for _, m in run) - n.half),
                      n.hi / (n.hi + others - sum(m.half for _, m in run) + n.half)))
    bad = [k for k, (x, (lo, hi)) in enumerate(zip(xs, lo_hi)) if not (x.lo <= hi + 1e-12 and lo <= x.hi + 1e-12)]
    if len(bad) > 1:
        return None
    if not bad:
        return GatheredClaim(a, None, run[0][0], run[0][1])
    k = bad[0]
    share = run[k][1].value / total
    return GatheredClaim(a, k, run[k][0], Num(share, xs[k].rounded(share), share, share, xs[k].line, xs[k].decimals),
                         normalised=True)


class GatheredJudging:
    """Judge methods for GatheredClaim."""

    def judge_gathered(self, c: GatheredClaim) -> None:
        self.n_claims += 1
        self.n_numbers += c.array.n_cols
        self.not_checked = [n for n in self.not_checked if (n.line, n.cell) != (c.array.place.line,
                                                                                 c.array.place.cell)]
        if c.entry is None:
            return                       # (checked against its lines: no more "not checked")
        x = c.array.rows[0][c.entry]
        line = x.line or c.array.place.line
        exact = c.value.value
        if self._exact_entry(c.array, c.entry, x):
            return                       # the line worked from rounded values (0.741), the list the exact weight
            #                              rounded right (0.742): no copy slip, and neither number is wrong
        self._add_once(Finding(line, c.array.place.cell, f"{c.array.label or 'list'}[{c.entry + 1}] (gathered)", x.text,
                         exact, c.value.text, "softmax" if c.normalised else _step(c.source),
                         f"the exponential on line {c.source.place.line} over the sum of the exponentials worked "
                         f"out with it gives {c.value.text}" if c.normalised else
                         f"line {c.source.place.line} works it out as {c.value.text}; the list quotes the lines "
                         f"above it in their order", _simple_kind(x, exact)))   # (once: found already, no more)

    def _exact_entry(self, a: Array, j: int, x: Num) -> bool:
        """Does the listed entry hold the exact value of the configuration's entry that the list stands for
        (the list identified by its other entries, as a row of a trace view)?"""
        plan = getattr(self, "plans", {}).get(a.id)
        hit = plan.get("hit") if plan else None
        if hit is None or hit.view is None or len(a.rows) != 1:
            return False
        vi, vj = _view_index(hit, 0, j)
        M = hit.view.M
        return 0 <= vi < M.shape[0] and 0 <= vj < M.shape[1] and x.contains(float(M[vi, vj]))
