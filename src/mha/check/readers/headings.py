"""A matrix whose only name is the heading just above it:

    #### $W_Q$

    $$
    \\begin{bmatrix} ... \\end{bmatrix}
    $$

Nothing on the matrix's own lines names it, so it was matched by value alone (a page's W_K was taken for X).  The
heading names it when only blank lines, display-math fences and the environment's opening stand between them, and
the heading is a symbol (W_Q, $K^{(1)}$, **V**), not words ("Step 2: the scores" names a step, not a matrix).  A
short line of its own ending in a colon names the block under it only when it is a symbol ("A:", "W_Q:")."""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import Document

_BETWEEN = re.compile(r"\s*(?:\$\$|\\\[|\\begin\{\w+\*?\}(?:\{[^}]*\})?|```\w*)?\s*")
_HEADING = re.compile(r"\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*\s*:?)\s*$")
_LOOK = 4
# a short line of its own that ends in a colon and names what follows
_SAID = re.compile(r"\s*(?:\*\*)?([^:：`$|]{1,60}?)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*")


def label_from_headings(doc: Document, text: str) -> None:
    if doc.format not in ("md", "txt"):
        return
    lines = text.split("\n")
    for a in doc.arrays:
        if a.label or a.line < 2 or a.line > len(lines):
            continue
        k = a.line - 2
        while k >= 0 and a.line - 2 - k < _LOOK and _BETWEEN.fullmatch(lines[k]):
            k -= 1
        if k < 0 or a.line - 2 - k >= _LOOK:
            continue
        m = _HEADING.fullmatch(lines[k])
        if not m:
            said = _SAID.fullmatch(lines[k])          # "Attention weights (after softmax):" over a code block
            name = said.group(1).strip() if said else ""
            # a symbol only ("A:", "W_Q:"): words before a colon ("Final weights, from another run I kept:", "Output:")
            # say as often what the block is not, or head console printouts of anything
            if name and re.fullmatch(r"[A-Za-z](?:_\{?\w+\}?)?(?:\^\{?\(?\w+\)?\}?)?", name) and \
                    lb.parse_label(name) is not None:
                a.label, a.labels = name, [name]
            continue
        head = m.group(1) or m.group(2)
        spans = re.findall(r"\$([^$]+)\$", head)
        if len(spans) == 1 and len(re.sub(r"\$[^$]+\$", " ", head).split()) <= 3:
            head = spans[0]                  # "Query $Q$", "Matrix $W_K$": the symbol in a few words
        name = re.sub(r"[$`*]", "", head).strip().rstrip(":").strip()
        ref = lb.parse_label(name) if 0 < len(name) <= 24 else None
        if ref is not None and ref.strong and not re.search(r"\s\w+\s", name):
            a.label, a.labels = name, [name]
