"""Helpers shared by the views: section numbering and matrix cell layout."""

from __future__ import annotations

from typing import Iterable, Iterator

from ..explanation.blocks import Matrix, Section


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


def grid(m: Matrix, *, row_dots: str, col_dots: str, diag_dots: str) -> list[list[str]]:
    """The shown cells with the elision markers of the target format filled in."""
    out = []
    for i, row in zip(m.rows, m.cells):
        if i is None:
            out.append([diag_dots if j is None else row_dots for j in m.cols])
        else:
            out.append([col_dots if c is None else c for c in row])
    return out
