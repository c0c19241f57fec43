"""Matrices drawn with box characters, as READMEs and plain-text notes draw them, one or several side by side:

      Q = ┌                ┐        K = ┌           ┐   V = ┌           ┐
          │ 0.32 0.69 0.83 │            │ 0.51 0.58 │       │ 0.62 0.38 │
          │ 0.44 0.41 0.01 │  ← q₂      │ 0.43 0.02 │       │ 0.15 0.51 │
          └                ┘            └           ┘       └           ┘

A lone box becomes the terminal's ⎡ ⎢ ⎣ matrix, several side by side become rows of [ ... ] groups (which the
drawn-text reader reads as matrices side by side), character for character, so that every place stays put.  A
name written before a top corner (`Q = ┌`) moves down onto the first row, where the reader looks for it; the
corner lines become blank.  Only rows of numbers between pairs of bars in the same columns count: a drawn table
(┌───┬───┐, │ a │ b │) keeps its lines.
"""

from __future__ import annotations

import re

_UTOP = re.compile(r"┌[\s─]*┐")
_UBOT = re.compile(r"└[\s─]*┘")
_NUMBERS = re.compile(r"^[,\s]*(?:(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?inf|\.\.\.|…)(?:[,\s]+|$))+$")
DRIFT = 3                 # a right bar may drift a little: "│ -4.950  2.121 │" under "│ 4.950  2.121 │"


def _pairs(line: str) -> list[tuple[int, int]] | None:
    """The (left, right) bars of a row: an even number of │, each pair around numbers only."""
    bars = [p for p, ch in enumerate(line) if ch == "│"]
    if not bars or len(bars) % 2:
        return None
    pairs = list(zip(bars[::2], bars[1::2]))
    if any(not _NUMBERS.match(line[a + 1:b]) or not re.search(r"\d", line[a + 1:b]) for a, b in pairs):
        return None
    return pairs


def _ascii_pairs(line: str) -> list[tuple[int, int]] | None:
    """The (left, right) ASCII bars of a drawn row, `| 1  0 |` (several side by side, with names between them):
    an even number of |, each pair around two or more numbers, nothing but words or spaces between pairs (a
    Markdown table, `| 1 | 2 | 3 |`, has numbers between its bars and one number in each cell)."""
    bars = [p for p, ch in enumerate(line) if ch == "|"]
    if not bars or len(bars) % 2:
        return None
    pairs = list(zip(bars[::2], bars[1::2]))
    for k, (a, b) in enumerate(pairs):
        inner = line[a + 1:b]
        if not _NUMBERS.match(inner) or len(re.findall(r"\d+(?:\.\d*)?|\.\d+|inf", inner)) < 2:
            return None
        if k and _NUMBERS.match(line[pairs[k - 1][1] + 1:a]) and re.search(r"\d", line[pairs[k - 1][1] + 1:a]):
            return None
    return pairs


def ascii_boxes(lines: list[str]) -> list[str]:
    """Matrices drawn between ASCII bars on two or more lines, as plain-text worksheets write them:

        X = | 1  0 |          WQ = | 1  0 |    WK = | 1  1 |
            | 0  1 |               | 1  1 |         | 0  1 |

    become bars of the box-drawn kind (unicode_boxes reads them); a row whose left bar stands one column off the
    first row's is set straight by swapping the bar with the blank beside it (so every line keeps its length)."""
    out = list(lines)
    for i, rows, k in _runs(lines, _ascii_pairs, _near_columns):
        if len(rows) >= 2:
            for r, pairs in zip(range(i, k), rows):
                line = list(lines[r])
                for (a, _), (c, _) in zip(rows[0], pairs):
                    if a != c and line[a] == " ":
                        line[a], line[c] = "|", " "
                out[r] = "".join(line).replace("|", "│")
    return out


def _runs(lines: list[str], pairs_of, same):
    """Each run of consecutive rows between bars in the same columns: (its first line, the bar pairs of each of
    its lines, the index past it)."""
    i = 0
    while i < len(lines):
        first = pairs_of(lines[i])
        if first is None:
            i += 1
            continue
        rows, k = [first], i + 1
        while k < len(lines) and (p := pairs_of(lines[k])) is not None and same(first, p):
            rows.append(p)
            k += 1
        yield i, rows, k
        i = k


def _near_columns(p: list[tuple[int, int]], q: list[tuple[int, int]]) -> bool:
    """ASCII bars drawn by hand: a left bar one column off, a right one a few."""
    return len(p) == len(q) and all(abs(a - c) <= 1 and abs(b - d) <= DRIFT for (a, b), (c, d) in zip(p, q))


def _same_columns(p: list[tuple[int, int]], q: list[tuple[int, int]]) -> bool:
    return len(p) == len(q) and all(a == c and abs(b - d) <= DRIFT for (a, b), (c, d) in zip(p, q))


def _corners(line: str, pattern: re.Pattern, lefts: list[int]) -> list[re.Match] | None:
    """The corner pairs of a top or bottom line, one over each box (None when the line is anything else)."""
    found = list(pattern.finditer(line))
    if [m.start() for m in found] != lefts:
        return None
    return found


def unicode_boxes(lines: list[str]) -> tuple[list[str], bool]:
    """The lines with every box-drawn matrix rewritten (module docstring), and whether there was one."""
    out = list(lines)
    drawn = False
    for i, rows, k in _runs(lines, _pairs, _same_columns):
        first = rows[0]
        lefts = [a for a, _ in first]
        top = _corners(lines[i - 1], _UTOP, lefts) if i > 0 else None
        bottom = _corners(lines[k], _UBOT, lefts) if k < len(lines) else None
        if top is not None and _text_between(lines[i - 1], top) is None:
            top = None                         # words after the last corner: not a top line of these boxes
        if len(rows) < 2 and top is None and bottom is None:
            continue                           # one bare row between bars: not enough to call it a matrix
        _rewrite(out, i, rows, len(first) > 1)
        if top is not None:
            _move_names(out, lines[i - 1], top, i)
            out[i - 1] = " " * len(lines[i - 1])
        if bottom is not None and not lines[k][bottom[-1].end():].strip() and not _text_between(lines[k], bottom):
            out[k] = " " * len(lines[k])
        drawn = True                           # (the bottom line, if any, holds no bars: the next run starts past it)
    return out, drawn


def _text_between(line: str, corners: list[re.Match]) -> list[str] | None:
    """The words before each corner pair (a box's name), or None when words follow the last one."""
    if line[corners[-1].end():].strip():
        return None
    out, start = [], 0
    for m in corners:
        out.append(line[start:m.start()].strip())
        start = m.end()
    return out


def _rewrite(out: list[str], i: int, rows: list[list[tuple[int, int]]], several: bool) -> None:
    """Bars to brackets: ⎡ ⎢ ⎣ for a lone box of several rows, [ ] for a row vector or boxes side by side."""
    n = len(rows)
    for r, pairs in enumerate(rows):
        line = out[i + r]
        for a, b in pairs:
            if several or n == 1:
                left, right = "[", "]"
            else:
                left = "⎡" if r == 0 else "⎣" if r == n - 1 else "⎢"
                right = "⎤" if r == 0 else "⎦" if r == n - 1 else "⎥"
            line = line[:a] + left + line[a + 1:b] + right + line[b + 1:]
        out[i + r] = line


def _move_names(out: list[str], top: str, corners: list[re.Match], first: int) -> None:
    """`Q = ┌` over a box: the name goes onto the box's first row, in the same columns, where they are blank."""
    start = 0
    row = out[first]
    for m in corners:
        name = top[start:m.start()]
        if name.strip() and not row[start:m.start()].strip():
            row = row[:start] + name + row[m.start():]
        start = m.end()
    out[first] = row
