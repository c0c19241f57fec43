"""What every part of a walk-through shares: the trace, the options, the prose, and how a matrix is shown.

`model.Builder` (the steps of the layer) and `tiled.Tiled` (the online-softmax
walk-through) both build on `Writer`; neither imports the other.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Iterable

import numpy as np

from ..trace import Trace
from .blocks import Block, Cell, Matrix, Section
from .catalog import catalog, fill
from .numbers import latex_number, prose_number
from .options import Options
from .tokens import first_query, query_rows, token_labels

MAX_ROWS = 8        # larger matrices are elided like NumPy does: first EDGE, ..., last EDGE
EDGE = 3
MAX_HEADS = 4       # more heads than this: only the first two are walked through unless asked
READ_ROWS = 4       # more shown rows than this: only the first two are read out in words


def sup(name: str, h: int) -> str:
    """A head's symbol in LaTeX: sup("Q", 0) -> "Q^{(1)}"."""
    return f"{name}^{{({h + 1})}}"


class Writer:
    """The trace and options of one explanation, with the helpers every step uses.  Numbers are read, never computed."""

    def __init__(self, trace: Trace, opts: Options):
        opts.check(trace.config)
        self.t, self.o, self.c, self.b = trace, opts, trace.config, opts.batch
        self.cat = catalog(opts.lang)
        H = self.c.n_heads
        if opts.heads is not None:
            self.heads = list(opts.heads)
        else:
            self.heads = [0, 1] if H > MAX_HEADS and not opts.full else list(range(H))
        self.q0 = first_query(self.c)       # query row i is token q0 + i + 1 of the sequence
        self.rows = query_rows(self.c, opts.tokens)                      # query rows shown in matrices
        few = len(self.rows) <= READ_ROWS or opts.full or opts.tokens
        self.read_rows = self.rows if few else self.rows[:2]             # query rows read out in words

    # ------------------------------------------------------------ words and numbers

    def tr(self, key: str, **params: Any) -> str:
        """The catalog's text for key, placeholders filled."""
        return fill(self.cat[key], params)

    def num(self, x: float) -> str:
        """A number inside math."""
        return latex_number(x, self.o.precision)

    def say(self, x: float) -> str:
        """A number inside a sentence."""
        return prose_number(x, self.o.precision)

    def vec(self, v: Iterable[float]) -> str:
        """A row of numbers inside math: [a, b, c]."""
        return "[" + ", ".join(self.num(x) for x in v) + "]"

    # The few numbers a step derives rather than reads: exact Decimals when the trace holds certified digits
    # (`digits.precise_trace`, --precision above 12), floats otherwise.
    @property
    def digits(self) -> bool:
        return self.t.A.dtype == object

    def ratio(self, p: int, q: int) -> float | Decimal:
        return Decimal(p) / Decimal(q) if self.digits else p / q

    def root(self, n: int) -> float | Decimal:
        return Decimal(n).sqrt() if self.digits else math.sqrt(n)

    def scale_value(self) -> float | Decimal:
        """The scale in effect; a given number is exact in the trace's configuration (its `scale`)."""
        c = self.c
        if not self.digits:
            return c.effective_scale
        rule = c.scale_rule
        return {"1/sqrt(d_k)": 1 / self.root(c.d_k), "none": Decimal(1), "1/d_k": self.ratio(1, c.d_k)}.get(
            rule, c.scale if isinstance(c.scale, Decimal) else Decimal(repr(c.effective_scale)))

    @staticmethod
    def rounded(x: float | Decimal, p: int) -> float | Decimal:
        """x rounded to p decimals as it is shown (half to even on the exact value)."""
        return round(x, p) if isinstance(x, Decimal) else round(float(x), p)

    def say_vec(self, v: Iterable[float]) -> str:
        """A row of numbers inside a sentence."""
        return "[" + ", ".join(self.say(x) for x in v) + "]"

    def span(self, first: int, last: int) -> str:
        """A run of token numbers: "4", or "3 to 5" in the language's words."""
        return str(first) if first == last else self.tr("range", first=first, last=last)

    def listing(self, parts: Iterable[Any]) -> str:
        """An enumeration with the language's separator ("1, 2" / "1、2")."""
        return self.cat["list.sep"].join(str(p) for p in parts)

    # ------------------------------------------------------------ matrices and sections

    def pick(self, n: int, only: list[int] | None = None) -> tuple[int | None, ...]:
        """Indices to show: all of them, or the first and last EDGE around an elision (None)."""
        idx = list(range(n)) if only is None else only
        if self.o.full or len(idx) <= MAX_ROWS:
            return tuple(idx)
        return tuple(idx[:EDGE]) + (None,) + tuple(idx[-EDGE:])

    def qn(self, i: int) -> int:
        """The number of query row i in the prose: its position in the sequence (see `tokens`)."""
        return self.q0 + i + 1

    def labels(self, side: str) -> list[str]:
        """Every token's label on one side: "queries", "keys", "new_keys" or "past_keys" (`tokens.token_labels`)."""
        return token_labels(self.c, side, self.b)

    def matrix(self, symbol: str, arr: np.ndarray, *, query_rows: bool = False, rows: str | None = "new_keys",
               cols: str | None = None, show_shape: bool = True, heat: bool = False,
               masked: np.ndarray | None = None) -> Matrix:
        """A 2-D array as shown.  rows / cols name the tokens along each axis ("queries", "keys", "new_keys")
        for the labels, or None; query rows are chosen by the tokens option."""
        rows = "queries" if query_rows else rows
        shown_rows = self.pick(arr.shape[0], self.rows if query_rows else None)
        shown_cols = self.pick(arr.shape[1])
        cells = tuple(tuple(None if i is None or j is None else
                            Cell(_number(arr[i, j]), masked is not None and bool(masked[i, j])) for j in shown_cols)
                      for i in shown_rows)
        exact = _whole(arr)
        return Matrix(symbol=symbol, cells=cells, rows=shown_rows, cols=shown_cols,
                      shape=(arr.shape[0], arr.shape[1]), precision=self.o.precision, approx=not exact,
                      show_shape=show_shape, heat=heat, row_labels=self._shown(rows, shown_rows),
                      col_labels=self._shown(cols, shown_cols))

    def _shown(self, side: str | None, idx: tuple[int | None, ...]) -> tuple[str, ...] | None:
        if side is None:
            return None
        names = self.labels(side)
        return tuple("" if i is None else names[i] for i in idx)

    def section(self, key: str, title_key: str, blocks: Iterable[Block | None], level: int = 2,
                **params: Any) -> Section:
        """A section titled from the catalog; None blocks (steps that do not apply) are left out."""
        return Section(key=key, title=self.tr(title_key, **params), blocks=tuple(b for b in blocks if b),
                       level=level)

    def some_keys(self, n: int) -> list[int]:
        """Key columns to read out: all of a short row, else the first EDGE and the last."""
        return list(range(n)) if n <= MAX_ROWS or self.o.full else list(range(EDGE)) + [n - 1]


def _number(x: Any) -> float | Decimal:
    """A matrix entry as a Cell holds it: certified digits stay a Decimal, anything else becomes a float."""
    return x if isinstance(x, Decimal) else float(x)


def _whole(arr: np.ndarray) -> bool:
    """Is every finite entry an integer (so the matrix is written with "=", not "≈")?"""
    if arr.dtype == object:
        return all(not v.is_finite() or v == v.to_integral_value() for v in map(Decimal, arr.flat))
    first = arr[:1]                     # measured values: a fraction in the first row usually settles it
    if np.any((first != np.round(first)) & np.isfinite(first)):
        return False
    return bool(np.all((arr == np.round(arr)) | ~np.isfinite(arr)))
