"""Matrices typed side by side in a text block, each over several lines:

    Q = K = [[1,0],       V = [[1,0],
             [0,1],            [0,2],
             [1,1]]            [3,1]]

Read line by line, the second matrix's rows run on from the first's.  The block is cut at the columns where the
second (and any later) assignment starts, when every line of it has only spaces there, and the pieces are read
one after the other, each on its own lines of the file."""

from __future__ import annotations

import re

from .common import Segment

# (a name may carry its shape: `W_Q (4×3) = [[1, 0, 0],`)
_START = re.compile(r"(?:^|(?<=\s\s))([A-Za-z_][\w^ᵀ']*(?:\s*=\s*[A-Za-z_][\w^ᵀ']*)*"
                    r"(?:\s*\(\s*\d+\s*[×x*,]\s*\d+\s*\))?\s*=\s*\[\s*\[)")


def side_by_side(seg: Segment) -> Segment:
    lines = seg.text.split("\n")
    if not any(len(_START.findall(ln)) >= 2 for ln in lines):
        return seg
    lmap = seg.line_map or [seg.line + k for k in range(len(lines))]
    out: list[str] = []
    omap: list[int] = []
    i = 0
    while i < len(lines):
        cuts = [m.start(1) for m in _START.finditer(lines[i])]
        if len(cuts) < 2:
            out.append(lines[i])
            omap.append(lmap[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and j - i < 64 and lines[j].strip().startswith("[") and \
                all(c >= len(lines[j]) or lines[j][c - 1:c].isspace() for c in cuts[1:]):
            j += 1
        cuts[0] = 0
        for b, c in enumerate(cuts):
            end = cuts[b + 1] if b + 1 < len(cuts) else None
            for k in range(i, j):
                out.append(lines[k][c:end].rstrip() if c < len(lines[k]) else "")
                omap.append(lmap[k])
            out.append("")
            omap.append(lmap[j - 1])
        i = j
    new = Segment("\n".join(out), omap[0], seg.where, seg.cell, omap)
    if hasattr(seg, "result"):
        new.result = seg.result          # a notebook cell's value (text.py): kept with its text
    return new


# `print(c, a)` of two one-row tensors: `tensor([0.99, 2.00]) tensor([0.88, 0.12])` on one line
_CALLS = re.compile(r"(?:tensor|array)\(\[[^\[\]]*\](?:,[^()]*)?\)")


def printed_on_one_line(seg: Segment, labels: list[str]) -> tuple[Segment, list[str]]:
    """A print of N names whose output line holds N one-row tensors (arrays): the line cut into N lines of the
    same file line, and the print's label cut into its N names, so that each tensor is read and named.  Only for
    the one print of a cell (the names would otherwise be matched with another print's output)."""
    names = labels[0].split() if len(labels) == 1 else []
    if len(names) < 2 or not all(re.fullmatch(r"[A-Za-z_][\w.]*", n) for n in names):
        return seg, labels
    lines = seg.text.split("\n")
    lmap = seg.line_map or [seg.line + k for k in range(len(lines))]
    out: list[str] = []
    omap: list[int] = []
    cut = False
    for k, line in enumerate(lines):
        calls = list(_CALLS.finditer(line))
        if len(calls) == len(names) and not _CALLS.sub("", line).strip():
            out += [m.group(0) for m in calls]
            omap += [lmap[k]] * len(calls)
            cut = True
        else:
            out.append(line)
            omap.append(lmap[k])
    if not cut:
        return seg, labels
    new = Segment("\n".join(out), omap[0], seg.where, seg.cell, omap)
    if hasattr(seg, "result"):
        new.result = seg.result
    return new, names
