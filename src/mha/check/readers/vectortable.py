"""Per-token vectors drawn as a text table inside a printout or a code block:

    Token │ Query (Q)    │ Key (K)      │ Value (V)
    ──────┼──────────────┼──────────────┼─────────────
    "I"   │ [ 0.8,  0.1] │ [ 0.6, -0.3] │ [ 0.4,  0.9]

A Markdown table is read by the Markdown parser; the same table drawn with bars in plain text reaches the
output reader as lines, where the bracketed cells would otherwise be read as loose vectors with no name.  The
header names the quantity of each column (Query, Key, Value, q, k, v, 查询 ...), the first column names the
tokens, and every other cell is one token's vector: the columns are Q, K and V with one row per token.  The
table goes to `tables.read_table` (which makes the column matrices) and its lines are blanked from the segment.
"""

from __future__ import annotations

import re

from .. import labels as lb
from .common import Segment, blank_lines, line_offset
from .tables import HeaderCell, read_table

_BAR = re.compile(r"\s*[│┃|]\s*")
_RULE = re.compile(r"^[\s─━┼╋+|│=:-]+$")
_VECTOR = re.compile(r"^\[\s*-?\d[^\[\]]*\]$")


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith(("|", "│", "┃")):
        s = s[1:]
    if s.endswith(("|", "│", "┃")):
        s = s[:-1]
    return [c.strip() for c in _BAR.split(s)]


def _header(line: str) -> list[str] | None:
    """A header whose columns after the first name at least two different quantities, and holds no number."""
    if not _BAR.search(line.strip()[1:]) or re.search(r"\d\s*[,.]\s*\d", line):
        return None
    cells = _cells(line)
    if len(cells) < 3:
        return None
    refs = [lb.parse_label(c) for c in cells[1:]]
    nodes = {r.nodes for r in refs if r is not None}
    return cells if len(nodes) >= 2 and all(r is not None for r in refs) else None


def _row(line: str, width: int) -> list[str] | None:
    cells = _cells(line)
    if len(cells) != width or not all(_VECTOR.match(c) for c in cells[1:]):
        return None
    return cells


# columns aligned by spaces under a header of words and a rule of dashes, each row opening with a bracketed vector:
#     encoder  score  score^  alignment
#     ---------------------------------
#     [0, 1, 1]   15      0   [0, 0, 0]
_HEAD_CELL = re.compile(r"[^\W\d][^\d\[\]]*")
_DASHES = re.compile(r"^\s*-{5,}\s*$")
_ALIGNED_CELL = re.compile(r"\[[^\[\]]*\]|[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.\]])")
_REMARK = re.compile(r"\s+\([^()]*\)\s*$")


def _aligned_row(line: str, width: int) -> list[str] | None:
    """The cells of a row under an aligned header: a vector first, then numbers or vectors, as many as the header
    names (a remark in parentheses after the last is left out: `15 (= 10×0 + 5×1 + 10×1)`)."""
    body = _REMARK.sub("", line).strip()
    if not body.startswith("["):
        return None
    cells = _ALIGNED_CELL.findall(body)
    if len(cells) != width or re.sub(r"\s+", "", "".join(cells)) != re.sub(r"\s+", "", body):
        return None
    return cells


def _aligned_tables(b, seg: Segment, lines: list[str]) -> list[int]:
    """Read each space-aligned table of per-token vectors; the indices of the lines read."""
    used: list[int] = []
    for k in range(len(lines) - 3):
        if not _DASHES.match(lines[k + 1]):
            continue
        head = re.split(r"\s{2,}", lines[k].strip())
        if len(head) < 2 or not all(_HEAD_CELL.fullmatch(c) for c in head):
            continue                # a header of words only, two spaces or more between them
        rows, j = [], k + 2
        while j < len(lines) and (cells := _aligned_row(lines[j], len(head))) is not None:
            rows.append((seg.line_of(line_offset(seg.text, j)), cells))
            j += 1
        if len(rows) >= 2:
            line = seg.line_of(line_offset(seg.text, k))
            read_table(b, [(line, [HeaderCell(c) for c in head])] + rows, seg.cell)
            used += list(range(k, j))
    return used


def vector_tables(b, seg: Segment) -> Segment:
    """Read each per-token vector table in the segment, and give back the segment with its lines blanked."""
    lines = seg.text.split("\n")
    if "---" in seg.text and "[" in seg.text:
        used = _aligned_tables(b, seg, lines)
        if used:
            seg = blank_lines(seg, used)
            lines = seg.text.split("\n")
    if not any("[" in x and _BAR.search(x) for x in lines):
        return seg
    used: list[int] = []
    k = 0
    while k < len(lines):
        head = _header(lines[k])
        if head is None:
            k += 1
            continue
        rows, j, taken = [], k + 1, [k]
        while j < len(lines):
            if _RULE.match(lines[j]) and lines[j].strip():
                taken.append(j)
            elif (cells := _row(lines[j], len(head))) is not None:
                rows.append((seg.line_of(line_offset(seg.text, j)), cells))
                taken.append(j)
            else:
                break
            j += 1
        if len(rows) >= 2:
            line = seg.line_of(line_offset(seg.text, k))
            read_table(b, [(line, [HeaderCell(c) for c in head])] + rows, seg.cell)
            used += taken
        k = j if len(rows) >= 2 else k + 1
    return blank_lines(seg, used)
