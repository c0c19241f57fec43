"""Scalars stated exactly (closed forms, long decimals) as evidence for a configuration.

Each names one entry (α_{12}, A^{(1)}_{31}, y_{21}, A[2,1]) or, unnamed, stands for any entry of the softmax and
after; a candidate explains it when its trace has that value to float64's precision.  One such scalar counts as
one printed number (an unnamed one as half), like a cell of an array: a closed form carries far more digits than
a cell, but only one fact about the configuration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import labels as lb
from .. import numbers as nb
from ..model import View, Views
from ..objects import Chain, Document
from ..readers.closed import chain_ref, face_value, is_closed, is_precise, precise_parts
from .prepare import Bases, _family

# what an unnamed exact value may be: the softmax and what follows it (a lone √2 names nothing)
UNNAMED = ("A", "O", "O_concat", "Y", "E", "row_sum")
# what a lone index names when there is one query: α₃, e₂, s₁ are the weights and scores of its keys
ONE_ROW = ("QKt", "S", "A", "E")


@dataclass(frozen=True)
class Scalar:
    """One exactly stated value and the entry it names (raw indices, as written)."""
    chain: Chain
    ref: lb.Ref | None
    value: float
    tol: float


def scalars_of(doc: Document) -> list[Scalar]:
    """The exactly stated scalars of a document, one per chain (its first closed form, else its long decimal)."""
    out = []
    for c in doc.chains:
        if not is_precise(c):
            continue
        ref = chain_ref(c)
        parts = precise_parts(c)
        closed = [p for _, p in parts if is_closed(p.expr)]
        if closed:
            x = face_value(closed[0].expr)
            tol = 1e-9
        else:
            n = nb.plain_number(parts[0][1].expr)
            x, tol = n.value, n.half + 1e-12
        if x is not None:
            out.append(Scalar(c, ref, x, tol * max(1.0, abs(x))))
    return out


def bases_of(scalars: list[Scalar]) -> Bases:
    """Indices written from 0 (A[0, 1]) when any index is 0, else from 1."""
    refs = [s.ref for s in scalars if s.ref is not None]
    row = 0 if any(r.raw_row == 0 or r.raw_col == 0 for r in refs) else 1
    head = 0 if any(r.raw_head == 0 for r in refs) else 1
    return Bases(head=head, row=row)


def entries(ref: lb.Ref, vs: Views) -> list[tuple[View, int, int]]:
    """The entries of a trace that a resolved label may name, the label's own node first: every column of a
    named row, every entry of a matrix named without indices, every head when it names none."""
    nodes = list(ref.nodes) + sorted(_family(ref) - set(ref.nodes))
    out = []
    for node in nodes:
        for v in vs.get(node, b=0, h=ref.head):
            r, c = v.M.shape
            rows = range(r) if ref.row is None else [ref.row] if 0 <= ref.row < r else []
            cols = range(c) if ref.col is None else [ref.col] if 0 <= ref.col < c else []
            if r == 1 and ref.row is not None and ref.col is None and node in ONE_ROW:
                rows, cols = [0], [ref.row] if 0 <= ref.row < c else []   # α₃ of one query: its third weight
            out.extend((v, i, j) for i in rows for j in cols)
    return out


def score_scalars(scalars: list[Scalar], vs: Views) -> tuple[float, int, int]:
    """(score, explained, printed) of the exactly stated scalars under one candidate's trace."""
    if not scalars:
        return 0.0, 0, 0
    bases = bases_of(scalars)
    score, explained = 0.0, 0
    for s in scalars:
        ref = bases.resolve(s.ref)
        if ref is not None:
            ok = any(_near(float(v.M[i, j]), s) for v, i, j in entries(ref, vs))
            weight = 1.0
        else:
            ok = any(np.isfinite(v.M).any() and bool((np.abs(v.M - s.value) <= s.tol).any())
                     for node in UNNAMED for v in vs.get(node, b=0))
            weight = 0.5
        if ok:
            score += weight
            explained += 1
    return score, explained, len(scalars)


def _near(x: float, s: Scalar) -> bool:
    return math.isfinite(x) and abs(x - s.value) <= s.tol
