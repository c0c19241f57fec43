"""A softmax drawn downwards in plain text: a row of scores, then lines that hold only the word softmax and the
strokes of an arrow (`|`, `↓`, `v`, `-->`), then the row of weights.  The drawing says that the second row is the
softmax of the first, as `softmax([...]) = [...]` written on one line does (statements.py), so the weights are tied
to those scores (`Array.softmax_of`) and judged against them (claims/softmax.py), whatever the configuration.

A call left open, `softmax([0.16, -0.05, -0.04]) =` ending its line, is tied the same way to the row a few lines
down that finishes it (`Approximately: [0.38, 0.31, 0.31]`), when the lines between only write the softmax out
(`[exp(0.16), ...] / Z`, `where Z = ...`)."""

from __future__ import annotations

import re

from ..objects import Array, Document
from .record import SOFTMAX_INPUT as _SOFTMAX_INPUT     # the label of a written softmax call's argument

# a line of the drawing: strokes, and at most the word softmax (or σ) once
_STROKES = re.compile(r"[\s|│┃↓⇓⬇vV↘︱∣\-–—=>→⟶]*")
_WORD = re.compile(r"(?i)softmax(?:\s*\(\s*\))?|σ|ソフトマックス|소프트맥스")
_MAX_GAP = 6          # lines of drawing between the two rows
# a line between an open call and its result: the softmax written out (exp, Z, a sum, a division), or nothing
_WRITTEN_OUT = re.compile(r"(?i)^\s*$|exp|e\^|\bZ\b|Σ|∑|\bsum\b|/")
# or the written-out form itself, when the reader joined it to the row (`[e^0.5, e^0.1] / Z ≈ [...]`)
_EXPS_OVER = re.compile(r"(?i)\s*\[?[^\[\]]*(?:exp|e\^)[^\[\]]*\]?\s*/\s*(?:Z|Σ|∑|sum)\w*\s*")
# what the finishing row may be labelled: a connective, or the weights by name
_FINISH = re.compile(r"(?i)\s*(?:approx(?:imately)?\.?|≈|~|=|so|thus|hence|result|gives|which gives|"
                     r"(?:attention\s+)?weights|probabilities|约|约为|结果)?\s*[:=≈]?\s*")


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


def tie_open_softmax(doc: Document, text: str) -> None:
    """Set y.softmax_of = x where `softmax([x]) =` ends its line and y, a few lines down, finishes it."""
    lines = text.split("\n")
    rows = sorted((a for a in doc.arrays if a.line > 0), key=lambda a: (str(a.place.cell), a.line))
    for k, x in enumerate(rows):
        if x.label != _SOFTMAX_INPUT or not _one_row(x) or x.line > len(lines):
            continue
        if not re.search(r"\)\s*(?:=|≈|\\approx)\s*$", lines[x.line - 1]):
            continue
        y = rows[k + 1] if k + 1 < len(rows) else None
        if y is None or y.place.cell != x.place.cell or not 2 <= y.line - x.line <= _MAX_GAP or \
                not _one_row(y) or y.n_cols != x.n_cols or y.softmax_of is not None:
            continue
        if doc.format == "ipynb" or not (_FINISH.fullmatch(y.label or "") or _EXPS_OVER.fullmatch(y.label or "")):
            continue
        if all(_WRITTEN_OUT.search(s) for s in lines[x.line:y.line - 1]) and _alone_on_line(doc, y):
            y.softmax_of = x


_INPUT = re.compile(r"(?i)^\W*(?:inputs?|in|输入|入力|입력)\W*$")
_OUTPUT = re.compile(r"(?i)^\W*(?:outputs?|out|输出|出力|출력)\W*$")
_NEAR = 6             # lines from the words that name the softmax down to the example's input


def tie_softmax_example(doc: Document, text: str) -> None:
    """A softmax shown by example under the words that name it ("softmax(x_i) = exp(x_i) / Σ exp(x_j)", then
    "输入：[0, 0.125, 0.25]" over "输出：[0.29, 0.33, 0.38]"): a row named input, the row named output on the next
    line or the one after, as wide, in [0, 1] and summing to 1, and the softmax named within a few lines above the
    input.  The output is that softmax of the input, whatever the configuration (and no query of the example)."""
    if doc.format == "ipynb":
        return
    lines = text.split("\n")
    rows = [a for a in doc.arrays if _one_row(a)]
    for x, y in zip(rows, rows[1:]):
        if y.softmax_of is not None or x.n_cols != y.n_cols or x.place.cell != y.place.cell or \
                not 0 < y.line - x.line <= 2 or not _INPUT.match(x.label or "") or not _OUTPUT.match(y.label or ""):
            continue
        w = [n.value for n in y.rows[0]]
        if min(w) < 0 or max(w) > 1 or abs(sum(w) - 1) > 0.02 * len(w):
            continue
        if any(_WORD.search(s) for s in lines[max(0, x.line - 1 - _NEAR):x.line - 1]):
            y.softmax_of = x
            x.example = y.example = True


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
