"""pandas' wrapped frames: a DataFrame wider than the terminal is printed in blocks of columns, one under another,
each block headed by its column names and repeating the row labels; every header but the last ends in a
backslash:

               After    the  scored  \\
    After      1.000  0.000   0.000
    the        0.445  0.555   0.000

                   a   Roll
    After      0.000  0.000
    the        0.000  0.000

Read as printed, each block is a matrix of its own, and a row of the first block is a part of a row (its sum is no
row sum).  The blocks are joined here into the one frame they print: each row's numbers from the later blocks are
appended to its line in the first block, and the later blocks' lines are left empty, so that every line keeps its
number."""

from __future__ import annotations

import re

_WRAPPED_HEADER = re.compile(r"^\s*\S.*\s\\\s*$")
_ROW = re.compile(r"^(\S+(?: \S+)*?)((?:\s+[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|\s+NaN)+)\s*\\?\s*$")


def _block(lines: list[str], k: int) -> tuple[list[tuple[str, str]], int] | None:
    """The rows (label, numbers) of the block whose header is line k, and the line after them."""
    rows = []
    j = k + 1
    while j < len(lines) and (m := _ROW.match(lines[j])):
        rows.append((m.group(1), m.group(2)))
        j += 1
    return (rows, j) if len(rows) >= 2 else None


def unwrap_frames(text: str) -> str:
    if "\\" not in text:
        return text
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        if not _WRAPPED_HEADER.match(lines[k]):
            k += 1
            continue
        first = _block(lines, k)
        if first is None:
            k += 1
            continue
        rows, j = first
        header, joined, done = lines[k].strip().rstrip("\\").rstrip(), [r[1] for r in rows], True
        blocks = []                           # (header line, first row line, rows) of each later block
        while True:
            while j < len(lines) and not lines[j].strip():
                j += 1
            nxt = _block(lines, j) if j < len(lines) else None
            if nxt is None or [r[0] for r in nxt[0]] != [r[0] for r in rows]:
                done = bool(blocks) and not blocks[-1][3]
                break
            wrapped = bool(_WRAPPED_HEADER.match(lines[j]))
            blocks.append((j, nxt[0], nxt[1], wrapped))
            j = nxt[1]
            if not wrapped:
                break
        if not blocks or not done and blocks[-1][3]:
            k += 1
            continue
        names = header.split()
        for h, brows, end, _ in blocks:
            names += lines[h].strip().rstrip("\\").split()
            joined = [a + b for a, (_, b) in zip(joined, brows)]
            for x in range(h, end):
                lines[x] = ""
        cells = [x.split() for x in joined]
        n = len(cells[0])
        if any(len(c) != n for c in cells):
            k += 1
            continue
        # re-aligned: the label column as wide as its longest label, each column as wide as its widest entry
        lw = max(len(r[0]) for r in rows)
        widths = [max([len(c[q]) for c in cells] + ([len(names[q])] if len(names) == n else [])) + 2
                  for q in range(n)]
        lines[k] = " " * lw + ("".join(x.rjust(w) for x, w in zip(names, widths)) if len(names) == n
                               else "  " + "  ".join(names))
        for x, (label, _) in enumerate(rows):
            lines[k + 1 + x] = label.ljust(lw) + "".join(c.rjust(w) for c, w in zip(cells[x], widths))
        k = blocks[-1][2]
    return "\n".join(lines)
