"""Helpers shared by the views: section numbering and a matrix's cells with the view's own elision marks."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from ..explanation.blocks import Cell, Matrix, Section


def numbered(sections: Iterable[Section]) -> Iterator[tuple[str, Section]]:
    """Number main steps 1, 2, ... and sub-steps 4.1, 4.2, ... under the step before them."""
    major = minor = 0
    for s in sections:
        if s.level <= 2:
            major, minor = major + 1, 0
            yield f"{major}", s
        else:
            minor += 1
            yield f"{major}.{minor}", s


def grid(m: Matrix, draw: Callable[[Cell], str], *, row_dots: str, col_dots: str, diag_dots: str) -> list[list[str]]:
    """Every shown cell drawn by the view, and the view's marks where a row, a column or both are elided."""
    out = []
    for i, row in zip(m.rows, m.cells):
        if i is None:
            out.append([diag_dots if j is None else row_dots for j in m.cols])
        else:
            out.append([col_dots if c is None else draw(c) for c in row])
    return out


def relation_latex(m: Matrix) -> str:
    """= for exact numbers, ≈ when some shown number is rounded."""
    return "\\approx" if m.approx else "="


def shape_latex(m: Matrix) -> str:
    """The space the full matrix lives in: \\in \\mathbb{R}^{T \\times S}."""
    return f"\\in \\mathbb{{R}}^{{{m.shape[0]} \\times {m.shape[1]}}}"
