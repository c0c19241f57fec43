"""A row of weights written again as the coefficients of a weighted sum over symbols: weights printed as
`[0.58, 0.10, 0.08, 0.16, 0.09]`, then `output_1 = 0.58·v1 + 0.10·v2 + 0.08·v3 + 0.16·v4 + 0.09·v5`, the value
vectors named but not given.  Nothing in the sum can be evaluated, but each coefficient claims to be the weight
of its key: a coefficient that is not (0.18 for 0.16) is a slip on the sum's line.

Identity before verdict:
* the sum is `c₁·v₁ + ... + cₙ·vₙ` (n ≥ 3) over one letter with the indices 1..n (or 0..n-1) in order, each c a
  printed number;
* the row is the nearest one-row array of n weights before it (same cell, within SPAN lines): entries in [0, 1]
  summing to 1 within their rounding;
* all but one of the coefficients are its entries, digit for digit, in order (so n - 1 ≥ 2 witnesses).
The reference is the weight as printed.  A row found wrong (its weights judged against its scores) is still the
row the sum quotes, though it does not sum to 1: a coefficient that is neither its printed weight nor the right
one is a slip of the sum; a quote of the wrong weight as printed is left to claims/requoted.py.
"""

from __future__ import annotations

import re

from .. import numbers as nb
from ..objects import Array, Chain, Document, ExprPart
from ..report import Finding

SPAN = 25           # lines from the row of weights to the sum that quotes them
_INDEXED = re.compile(r"\\?(?:mathbf\{|boldsymbol\{|vec\{)?([A-Za-z])\}?_?\{?(\d+)\}?")
_SUB = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def symbolic_sums(doc: Document, findings: list[Finding]) -> list[Finding]:
    """Error findings for coefficients of a symbolic weighted sum that misquote the row of weights above it."""
    taken = {(f.cell, f.line) for f in findings if f.severity == "error"}     # (notes: the other quotes of the row)
    out: list[Finding] = []
    for c in doc.chains:
        coeffs = _coefficients(c)
        if coeffs is None or (c.place.cell, c.place.line) in taken:
            continue
        row = _row_before(doc, c, len(coeffs), findings)
        if row is None:
            continue
        printed = row.rows[0]
        off = [j for j, (q, w) in enumerate(zip(coeffs, printed)) if q.text != w.text]
        if len(off) != 1:
            continue
        j = off[0]
        q, w = coeffs[j], printed[j]
        if q.contains(w.value) or w.contains(q.value):
            continue                        # 0.1 for 0.10: the same weight, printed to another precision
        own = next((f for f in findings if f.severity == "error" and f.cell == row.place.cell and
                    f.line == (w.line or row.line) and f.printed == w.text and isinstance(f.exact, float)), None)
        if own is not None and (q.contains(own.exact) or abs(q.value - own.exact) < abs(w.value - own.exact)):
            continue                        # the weight found off there, quoted right (or nearer right than the
            #                                 row prints it, 0.09 for 0.096 where the row slipped to 0.69): the
            #                                 row's slip, reported on its line, and no slip of the quote
        aside = f" (itself found off there: the weight is {own.rounded})" if own is not None else ""
        out.append(Finding(q.line or c.place.line, c.place.cell, f"coefficient {j + 1} of {c.parts[0].text.strip()}",
                           q.text, w.value, w.text, "weighted_sum",
                           f"the weights printed at line {w.line or row.line} give {w.text} for key {j + 1}{aside}",
                           "wrong_value"))
    return out


def _coefficients(c: Chain) -> list[nb.Num] | None:
    """c₁·v₁ + ... + cₙ·vₙ over one letter indexed in order: the printed c's, else None."""
    exprs = [p for p in c.parts if isinstance(p, ExprPart)]
    if not exprs:
        return None
    terms = nb.terms_of(exprs[0].expr)
    if len(terms) < 3:
        return None
    coeffs, letters, idx = [], set(), []
    for t in terms:
        fs = nb.factors_of(t)
        if len(fs) != 2 or not isinstance(fs[0], nb.Lit) or not isinstance(fs[1], nb.Sym):
            return None
        m = _INDEXED.fullmatch(fs[1].text.translate(_SUB).replace(" ", ""))
        if m is None:
            return None
        letters.add(m.group(1).lower())
        idx.append(int(m.group(2)))
        coeffs.append(fs[0].num)
    if len(letters) != 1 or idx not in (list(range(1, len(idx) + 1)), list(range(len(idx)))):
        return None
    return coeffs


def _row_before(doc: Document, c: Chain, n: int, findings: list[Finding]) -> Array | None:
    """The nearest one-row array of n weights before the chain, in its cell, within SPAN lines: its entries sum
    to 1, or it was judged as a row of weights (a softmax finding on it)."""
    best = None
    for a in doc.arrays:
        if a.place.cell != c.place.cell or not 0 <= c.place.line - a.line <= SPAN or a.n_rows != 1:
            continue
        if a.line == c.place.line and a.place.where == c.place.where and a.prev_expr is not None:
            continue                        # the sum's own result
        row = a.rows[0]
        if row is None or len(row) != n or any(x is None for x in row):
            continue
        if best is None or a.line >= best.line:
            best = a
    if best is None or best.line == c.place.line:
        return None
    row = best.rows[0]
    if not all(0 <= x.value <= 1 for x in row):
        return None
    judged = any(f.severity == "error" and f.step == "softmax" and f.cell == best.place.cell and
                 any(f.line == (x.line or best.line) and f.printed == x.text for x in row) for f in findings)
    if abs(sum(x.value for x in row) - 1) > sum(x.half for x in row) + 1e-9 and not judged:
        return None
    return best
