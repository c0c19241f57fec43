"""The explanation model's building blocks: plain data that every renderer lays out.

Numbers stay numbers and flags stay flags: a matrix holds its cells as `Cell`
(a float and a masked flag) and marks elisions with None, so each renderer draws
them in its own notation with `numbers.format_number`.  Prose and display
formulas are LaTeX (inline math between `$...$`), as the catalogs are written;
the renderers convert them with maintained libraries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union


@dataclass(frozen=True)
class Para:
    """A paragraph of prose, inline math between $...$."""
    text: str


class Note(Para):
    """A paragraph set apart from the main flow (a tip, a caveat, a rounding remark)."""


@dataclass(frozen=True)
class Items:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Display:
    """One display equation, in LaTeX."""
    latex: str


@dataclass(frozen=True)
class Cell:
    """One shown entry of a matrix: its exact value, and whether a mask removed it (a score of -inf, a weight of 0)."""
    value: float
    masked: bool = False


@dataclass(frozen=True)
class Matrix:
    """A (possibly elided) matrix: `symbol = [cells] ∈ ℝ^{shape}`.

    rows / cols are the original 0-based indices shown, None where an elision
    stands; cells[r][c] is None where an elided row or column crosses.
    """
    symbol: str                                  # LaTeX left-hand side, e.g. "A^{(1)}"
    cells: tuple[tuple[Cell | None, ...], ...]
    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]
    shape: tuple[int, int]                       # the full shape, before elision
    precision: int                               # decimals shown
    approx: bool = False                         # some shown number is rounded: "≈" rather than "="
    show_shape: bool = True                      # append "∈ ℝ^{rows × cols}"
    row_labels: tuple[str, ...] | None = None    # per shown row: the token's label (its number, or its text)
    col_labels: tuple[str, ...] | None = None    # per shown column; "" where an elision stands
    heat: bool = False                           # attention weights: renderers may shade cells

    def shown(self) -> Iterator[tuple[int, int, Cell]]:
        """(row position, column position, cell) of every shown number."""
        for r, row in enumerate(self.cells):
            for c, cell in enumerate(row):
                if cell is not None:
                    yield r, c, cell


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
