"""What the readers hand on: numeric objects and equation chains, each with its provenance.

Readers never interpret: an `Array` is a grid of printed numbers with the text that labels it,
the line of every number, where it stood (math, code, output, table, prose) and whether the
document said it was approximate.  A `Chain` is `lhs = t1 = t2 ≈ t3` with its parts typed.
"""

from __future__ import annotations

import bisect

from dataclasses import dataclass, field

import numpy as np

from .numbers import Expr, Num, float32_ties, float32_width


@dataclass(frozen=True)
class Place:
    """Where something stands: the file line (inside cell `cell` for a notebook), and its kind of text."""
    line: int
    cell: int | None = None
    where: str = "prose"        # prose, math, code, comment, output, table, heading

    def __str__(self) -> str:
        return f"cell {self.cell}, line {self.line}" if self.cell is not None else f"line {self.line}"

    @property
    def order(self) -> tuple[int, int]:
        """(cell, line), for reading order across a document's cells (0 for a file without cells)."""
        return (self.cell or 0, self.line)

    @property
    def run_order(self) -> tuple[int, int, int]:
        """Order of running: a notebook cell's outputs come after all of its code, whatever their line numbers."""
        return (self.cell or 0, int(self.cell is not None and self.where == "output"), self.line)


@dataclass
class Context:
    """What a reader knows when an object appears: the last heading and the words right before it."""
    heading: str = ""
    before: str = ""
    head: int | None = None      # 0-based head named by the surrounding text ("Head 2", "第 2 个头")
    batch: int | None = None
    row: int | None = None       # 0-based row named by the surrounding text ("row 1", "第一行")
    step: str | None = None      # a step named by the last heading (scores, softmax, ...)
    approx: bool = False         # "≈", "approximately", "约", "rounded" nearby
    shape_words: bool = False    # the text says this is a shape ("shape", "维度", "size")
    partial: bool = False        # a walk-through of running quantities (online softmax, tiles): not trace values
    dropout: bool = False        # printed after dropout (readers/dropout.py): not the weights, nor what follows
    dropped_copy: str = ""       # the values that say so where nothing else did (readers/dropvalues.py)


@dataclass
class Array:
    """A printed scalar, vector, matrix or tensor.

    `rows` is 2-D: a list of rows (None = an elided row, ⋮) of cells (Num; None = an elided cell, ⋯).
    N-D printouts keep their leading shape in `lead`: a [2, 3, 4] tensor is 6 rows of 4 with lead (2, 3).
    """
    rows: list[list[Num | None] | None]
    place: Place
    label: str = ""                      # the text that names it (left-hand side, variable, caption)
    labels: list[str] = field(default_factory=list)   # every name of its chain: A = softmax(S) = [...]
    lead: tuple[int, ...] = ()
    style: str = "list"                  # tex, list, numpy, torch, table, box
    context: Context = field(default_factory=Context)
    rel: str = "="                       # the relation before it: =, ≈, :
    id: int = 0
    prev_expr: object = None             # the expression it is said to equal: 0.4 [1, 0] + 0.6 [0, 1] = [...]
    prev_factors: "tuple | None" = None  # the printed factors of the product it is said to equal: [A] [V] = [...]
    softmax_of: "Array | None" = None    # written as softmax([...]) = [...]: the vector it is the softmax of
    parameter: bool = False              # printed from a module's parameter (`attn.out_proj.weight`): set, not
    #                                      computed (readers/python.py)
    example: bool = False                # a softmax shown by example, its input or output: no evidence of the
    #                                      configuration (readers/softmaxdrawn.py, tie_softmax_example)
    softmax_arrow: bool = False          # ... or as [...] → [...] under a softmax heading (a step, maybe scaled)
    source: str = ""                     # a printout's code: `attn_weights = softmax(scores / d**0.5)` (python.py)
    made: bool = False                   # made in code by a constructor (torch.ones(3, 3)): set, not computed
    retyped: bool = False                # typed in code for a name the code computed just before: set by hand
    retyped_later: bool = False          # ... for a name code in an earlier cell computed (readers/python.py)
    softmax_out: bool = False            # printed by torch with grad_fn=<SoftmaxBackward0>: a softmax's output

    # ---------------------------------------------------------- derived views
    @property
    def elided(self) -> bool:
        return any(r is None or any(c is None for c in r) for r in self.rows)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def n_cols(self) -> int:
        return max((len(r) for r in self.rows if r is not None), default=0)

    @property
    def shape(self) -> tuple[int, ...]:
        if self.lead:
            return self.lead + (self.n_rows // max(1, int(np.prod(self.lead))), self.n_cols)
        return (self.n_rows, self.n_cols)

    @property
    def is_vector(self) -> bool:
        return not self.lead and self.n_rows == 1

    @property
    def numbers(self) -> list[Num]:
        return [c for r in self.rows if r is not None for c in r if c is not None]

    @property
    def line(self) -> int:
        nums = self.numbers
        return nums[0].line if nums and nums[0].line else self.place.line

    def row_line(self, i: int) -> int:
        r = self.rows[i]
        if r:
            for c in r:
                if c is not None and c.line:
                    return c.line
        return self.place.line

    def grids(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(lo, hi, value) float arrays for a gap-free 2-D grid, None when rows differ or cells are elided."""
        if self.elided or len({len(r) for r in self.rows}) != 1:
            return None
        lo = np.array([[c.lo for c in r] for r in self.rows], dtype=float)
        hi = np.array([[c.hi for c in r] for r in self.rows], dtype=float)
        val = np.array([[c.value for c in r] for r in self.rows], dtype=float)
        return lo, hi, val

    def all_integers(self) -> bool:
        return all(n.decimals is None for n in self.numbers)


@dataclass
class LabelPart:
    text: str
    # a product written out with both factors printed, [..] × [..]: the factors (claims/product.py judges the
    # result against them); the text stays the label of what it equals
    operands: "tuple[Array, Array] | None" = field(default=None, compare=False, repr=False)
    # a number written just before an array it multiplies ("\frac{1}{2} [M] ≈ [M']"): the array is a factor of
    # the product, not what the chain's left side names
    scalar: bool = False


@dataclass
class ArrayPart:
    array: Array


@dataclass
class ExprPart:
    expr: Expr
    text: str


@dataclass
class ShapePart:
    dims: list[int]
    text: str
    line: int = 0


@dataclass
class ShapeProduct:
    """[3, 2] × [2, 3] = [3, 3] (or 3×2 · 2×3 → 3×3)."""
    left: list[int]
    right: list[int]
    result: list[int] | None
    text: str


Part = LabelPart | ArrayPart | ExprPart | ShapePart | ShapeProduct


@dataclass
class Chain:
    """lhs = t1 = t2 ≈ t3: typed parts and the relations between them."""
    parts: list[Part]
    rels: list[str]
    place: Place
    text: str
    context: Context = field(default_factory=Context)
    shown: str = ""           # the line as written, its spaces kept, for findings to quote ("" where none)


@dataclass
class Reading:
    """Prose that states one entry: "token 1 attends to token 3 with weight 0.4011"."""
    value: Num
    row: int | None           # 0-based
    col: int | None
    words: str                # which quantity the words name (weight, score, ...)
    place: Place
    text: str
    context: Context = field(default_factory=Context)


@dataclass
class Hint:
    """A configuration fact stated in words: identity weights, a causal mask, no scaling, H heads..."""
    kind: str                 # identity, causal, unscaled, heads, scale, no_wo, decimals, padding
    value: object
    place: Place
    text: str


@dataclass
class Document:
    """Everything a reader found, in reading order."""
    arrays: list[Array] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    hints: list[Hint] = field(default_factory=list)
    headings: list[Place] = field(default_factory=list)     # where each heading (section, frame) starts
    openers: list[Place] = field(default_factory=list)      # headings or lines that say another example starts
    format: str = "text"
    n_lines: int = 0
    softmax_said: dict = field(default_factory=dict)    # a text file's lines that name the softmax, or give numbers
    lines: list = field(default_factory=list)           # a text file's lines as read (none for a notebook)
    cell_lines: dict = field(default_factory=dict)      # a notebook's Markdown cells' lines, by cell number

    def line_text(self, place: "Place", line: int) -> str | None:
        """The text of a line of the page: of the file, or of the notebook's Markdown cell the place is in."""
        lines = self.lines if place.cell is None else self.cell_lines.get(place.cell, [])
        return lines[line - 1] if 0 < line <= len(lines) else None

    def in_opened_section(self, place: "Place") -> bool:
        """Is this place in a section that an opener starts (an exercise, "another example")?  The section of a
        place is the number of headings before it (scoped.mark_openers makes each opener a heading too)."""
        if not self.openers or place is None:
            return False
        keys = sorted(p.order for p in self.headings)
        section = bisect.bisect_right(keys, place.order)
        return section in {bisect.bisect_right(keys, o.order) for o in self.openers}

    def set_arrays(self, arrays: list[Array], in_reading_order: bool = False) -> None:
        """Replace the arrays (a reader added some or dropped some), numbered again by position; in_reading_order:
        sorted by (cell, line) first, each line's arrays kept in the order they were read."""
        self.arrays = sorted(arrays, key=lambda a: (a.place.cell or 0, a.place.line)) if in_reading_order \
            else list(arrays)
        for k, a in enumerate(self.arrays):
            a.id = k

    def add_array(self, a: Array) -> Array:
        float32_width(a.rows)             # eight digits of a float32 printout are read at float32's width
        if a.style == "torch" and a.place.where == "output":
            float32_ties(a.rows)          # torch computes in float32: a value a hair from a rounding tie may fall
            #                               either side of it (1.11115016 exact, 1.1111495 in float32, shown 1.1111)
        a.id = len(self.arrays)
        self.arrays.append(a)
        return a
