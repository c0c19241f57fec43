"""The explanation model's building blocks: plain data that every renderer lays out.

Text may hold inline math between `$...$` in a small LaTeX subset (see
`mha.render.unimath`); numbers are already formatted strings, so a renderer
never rounds or computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

import numpy as np


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Note:
    """A remark set apart from the main flow (a tip, a caveat, a rounding remark)."""
    text: str


@dataclass(frozen=True)
class Items:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Display:
    """One display equation, in LaTeX."""
    latex: str


@dataclass(frozen=True)
class Matrix:
    """A (possibly elided) matrix: `symbol rel [cells] suffix`.

    rows / cols hold the original 0-based indices shown; None marks an elision.
    cells[i][j] is a formatted number, "-\\infty" for a masked score, or None
    where an elided row or column crosses.
    """
    symbol: str                      # LaTeX left-hand side, e.g. "A^{(1)}"
    cells: tuple[tuple[str | None, ...], ...]
    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]
    shape: tuple[int, ...]           # the full shape, before elision
    rel: str = "="                   # "=" or "\\approx"
    suffix: str = ""                 # LaTeX after the matrix, e.g. "\\in \\mathbb{R}^{3 \\times 2}"
    row_labels: tuple[str, ...] | None = None   # per shown row (None rows get "")
    col_labels: tuple[str, ...] | None = None
    values: np.ndarray | None = field(default=None, compare=False)  # shown numbers, for heatmaps
    heat: bool = False               # attention weights: renderers may colour cells
    masked: np.ndarray | None = field(default=None, compare=False)  # shown cells a mask removed


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Union[Para, Note, Items, Display, Matrix, Table]


@dataclass(frozen=True)
class Section:
    key: str                  # stable id, e.g. "setup", "head1.softmax"
    title: str
    blocks: tuple[Block, ...]
    level: int = 2            # 2 = main step, 3 = sub-step
