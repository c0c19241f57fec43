"""A softmax drawn downwards in plain text: a row of scores, then lines that hold only the word softmax and the
strokes of an arrow (`|`, `↓`, `v`, `-->`), then the row of weights.  The drawing says that the second row is the
softmax of the first, as `softmax([...]) = [...]` written on one line does (statements.py), so the weights are tied
to those scores (`Array.softmax_of`) and judged against them (claims/softmax.py), whatever the configuration."""

from __future__ import annotations

import re

from ..objects import Array, Document

# a line of the drawing: strokes, and at most the word softmax (or σ) once
_STROKES = re.compile(r"[\s|│┃↓⇓⬇vV↘︱∣\-–—=>→⟶]*")
_WORD = re.compile(r"(?i)softmax(?:\s*\(\s*\))?|σ")
_MAX_GAP = 6          # lines of drawing between the two rows


def tie_drawn_softmax(doc: Document, text: str) -> None:
    """Set y.softmax_of = x for each pair of one-row arrays drawn one above the other with softmax between them."""
    if doc.format == "ipynb":
        return                                   # a notebook's lines are counted per cell: its drawings are rare
    lines = text.split("\n")
    rows = [a for a in doc.arrays if _one_row(a)]
    for x, y in zip(rows, rows[1:]):
        if y.softmax_of is not None or x.n_cols != y.n_cols or x.place.cell != y.place.cell:
            continue
        if _drawn_between(lines, x.line, y.line) and _alone_on_line(doc, x) and _alone_on_line(doc, y):
            y.softmax_of = x


def _one_row(a: Array) -> bool:
    return a.is_vector and a.n_cols >= 2 and not a.elided and a.line > 0


def _drawn_between(lines: list[str], top: int, bottom: int) -> bool:
    """Lines top+1 .. bottom-1 (1-based) are an arrow with the word softmax on one of them, nothing else."""
    if not 2 <= bottom - top <= _MAX_GAP or bottom > len(lines):
        return False
    words = 0
    for s in lines[top:bottom - 1]:
        rest, n = _WORD.subn("", s)
        words += n
        if n > 1 or not _STROKES.fullmatch(rest):
            return False
    return words == 1


def _alone_on_line(doc: Document, a: Array) -> bool:
    """No other array starts on its line: the row is the drawing's, not one of several side by side."""
    return sum(b.line == a.line and b.place.cell == a.place.cell for b in doc.arrays) == 1
