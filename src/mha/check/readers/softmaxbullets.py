"""A softmax said by a list: the scores in a list item, what is done to them in the items nested under it.

    * scores `[-1.0, 0.5, 2.0]` (they sum to 1.5):
        * divided by their sum → `[-0.67, 0.33, 1.33]`
        * **softmax** → `[0.04, 0.18, 0.78]`

    *   スコアが `[1.0, 2.0, 3.0]` のとき：
        *   **ソフトマックス** $\\to$ `[9%, 24%, 67%]`

A nested item that names the softmax (and no other operation: a division, a scale, a temperature, a mask) and
holds one vector of weights says that they are the softmax of the one vector of its parent item, as
`softmax([...]) = [...]` does: the two are tied (`Array.softmax_of`) and judged against each other
(claims/softmax.py), whatever the configuration.  The weights may be written as shares or as percentages; they must
be weights (each in [0, 1], summing to 1 within the rounding or a slipped digit), and not the scores over their
sum.  Only vectors that the other readers made into one-row arrays are tied; nothing is added here.
"""

from __future__ import annotations

import re

from ..objects import Array, Document
from .refence import outside_fences
from .softmaxsaid import _OTHER, _a_softmax_pair

_ITEM = re.compile(r"^(\s*)(?:[*+-]|\d{1,2}[.)])\s+(.*)$")
_SOFTMAX = re.compile(r"softmax|ソフトマックス|소프트맥스", re.I)
_SPAN = 12               # lines from the parent item to its last nested item


def tie_bullet_softmax(doc: Document, text: str) -> None:
    """Tie the weights of each nested softmax item to the scores of its parent item (see the module)."""
    if doc.format not in ("md", "text") or not _SOFTMAX.search(text):
        return
    lines = text.split("\n")
    for k, (line, outside) in enumerate(zip(lines, outside_fences(lines))):
        m = _ITEM.match(line)
        if not outside or m is None:
            continue
        x = _one_row(doc, k + 1)
        if x is None or _SOFTMAX.search(m.group(2)):
            continue
        for j in _children(lines, k, len(m.group(1).expandtabs())):
            body = _ITEM.match(lines[j]).group(2)
            # the words before the weights say what is done; what follows them is a remark ("about 70%")
            head = re.sub(r"`[^`]*`|\$[^$]*\$", " ", body[:body.find("[")] if "[" in body else body)
            if not _SOFTMAX.search(head) or _OTHER.search(_SOFTMAX.sub("", head)):
                continue
            y = _one_row(doc, j + 1)
            if y is None or y is x or y.softmax_of is not None:
                continue
            if _a_softmax_pair([n.value for n in x.rows[0]], list(y.rows[0])):
                y.softmax_of = x          # (said in words, as a sentence says it: not an arrow read as a step)


def _children(lines: list[str], k: int, indent: int) -> list[int]:
    """The lines of the items nested under the list item on line k (indented deeper, before the next item at its
    depth or shallower, or text that is not indented under it)."""
    out = []
    for j in range(k + 1, min(len(lines), k + 1 + _SPAN)):
        if not lines[j].strip():
            continue
        depth = len(lines[j].expandtabs()) - len(lines[j].expandtabs().lstrip())
        if depth <= indent:
            break
        if _ITEM.match(lines[j]):
            out.append(j)
    return out


def _one_row(doc: Document, line: int) -> Array | None:
    """The one vector (a one-row array, every entry printed) on this line of prose, or None for none or several."""
    rows = [a for a in doc.arrays if a.place.cell is None and a.line == line and a.n_rows == 1 and a.rows[0]
            and None not in a.rows[0] and len(a.rows[0]) >= 2]
    return rows[0] if len(rows) == 1 else None
