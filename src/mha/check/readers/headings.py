"""A matrix whose only name is the heading just above it:

    #### $W_Q$

    $$
    \\begin{bmatrix} ... \\end{bmatrix}
    $$

Nothing on the matrix's own lines names it, so it was matched by value alone (a page's W_K was taken for X).  The
heading names it when only blank lines, display-math fences and the environment's opening stand between them, and
the heading is a symbol (W_Q, $K^{(1)}$, **V**), not words ("Step 2: the scores" names a step, not a matrix).  A
short line of its own ending in a colon (or "=") names the block under it only when it is a symbol ("A:", "W_Q:",
"Q ="), or a word with the symbol after it in parentheses ("Query (Q):")."""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import Document

_BETWEEN = re.compile(r"\s*(?:\$\$|\\\[|\\begin\{\w+\*?\}(?:\{[^}]*\})?|```\w*)?\s*")
# (a bold label may say the block's shape after it: "**Q (Queries)** - shape (3, 4):", "**K** (3×4):")
_HEADING = re.compile(r"\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*\s*(?:[-–—,]?\s*(?:shape\s*[:=]?\s*)?"
                      r"[(\[]\s*\d+(?:\s*[,×x*]\s*\d+)+\s*[)\]])?\s*:?)\s*$", re.I)
_LOOK = 4
# one word set in code type or math with the block's shape after it (`output` (2×4):): a name, not a caption
_SHAPED_NAME = re.compile(r"\s*(?:`\w+`|\$\w+\$)\s*[(\[]\s*\d+(?:\s*[,×x*]\s*\d+)+\s*[)\]]\s*[:：]\s*")
# a short line of its own that ends in a colon and names what follows
# (or in "=": "Q =" on its own over the block that holds Q)
# (the symbol may be set in code type or math, and its shape may follow it: "`Q` (2×4):", "$K$ (3×4):")
_SAID = re.compile(r"\s*(?:\*\*)?[`$]?([^:：=`$|]{1,60}?)[`$]?(?:\*\*)?\s*(?:[(\[]\s*\d+(?:\s*[,×x*]\s*\d+)+\s*[)\]])?"
                   r"\s*[:：=]\s*(?:\*\*)?\s*")


def label_from_headings(doc: Document, text: str) -> None:
    if doc.format not in ("md", "txt", "html"):
        return
    lines = text.split("\n")
    if doc.format == "html":            # `<code>Q</code> (2×4):` over the matrix: code type kept, other tags dropped
        lines = [re.sub(r"<[^>]*>", "", re.sub(r"</?code>", "`", ln)) for ln in lines]
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
            name = _symbol_of(said.group(1).strip()) if said else ""
            # a symbol only ("A:", "W_Q:"): words before a colon ("Final weights, from another run I kept:", "Output:")
            # say as often what the block is not, or head console printouts of anything
            if name and (re.fullmatch(r"[A-Za-z](?:_\{?\w+\}?)?(?:\^\{?\(?\w+\)?\}?)?", name) or
                         _SHAPED_NAME.fullmatch(lines[k])) and lb.parse_label(name) is not None:
                a.label, a.labels = name, [name]
            continue
        head = m.group(1) or m.group(2)
        spans = re.findall(r"\$([^$]+)\$", head)
        if len(spans) == 1 and len(re.sub(r"\$[^$]+\$", " ", head).split()) <= 3:
            head = spans[0]                  # "Query $Q$", "Matrix $W_K$": the symbol in a few words
        name = _symbol_of(re.sub(r"[$`*]", "", head).strip().rstrip(":").strip())
        ref = lb.parse_label(name) if 0 < len(name) <= 24 else None
        if ref is not None and ref.strong and not re.search(r"\s\w+\s", name):
            a.label, a.labels = name, [name]


# "Query (Q)", "Key (K)", "Valor (V)": a word, then the symbol in parentheses
_WORD_SYMBOL = re.compile(r"([^\W\d_][^\W\d_ ]*(?: [^\W\d_]+){0,2})\s*[(（]\s*([A-Za-z](?:_\{?\w{1,3}\}?)?)\s*[)）]")


def _symbol_of(name: str) -> str:
    """The symbol a label gives in parentheses after the word for it ("Query (Q)" -> "Q"), when the word names the
    same quantity; the label itself otherwise."""
    m = _WORD_SYMBOL.fullmatch(name)
    if m is None:
        return name
    word, sym = lb.parse_label(m.group(1)), lb.parse_label(m.group(2))
    return m.group(2) if sym is not None and sym.strong and word is not None and word.nodes == sym.nodes else name
