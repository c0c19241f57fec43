"""A result compared with a value given before, and ticked: `New variance = (0.577)² × 52.33 = 17.44 ≈ 16.33 ✓`
under `Original variance = 16.33` (t218b, a page on why the scores are scaled).  The last number is the reference the
result is said to come close to, not the result rounded, so judging it as the result's rounding called a right 17.44
wrong.  The chain is read without it: the arithmetic up to the result is still judged.

Only this plain case: the chain ends with `≈ N` (or `~ N`), a tick (✓, ✔) follows it, and N is printed, digit for
digit, on an earlier line of the page.
"""

from __future__ import annotations

import re

from ..numbers import plain_number
from ..objects import Document, ExprPart

_TICK = re.compile(r"[✓✔]\s*$")
_NEAR = ("≈", "~", "\\approx", "≃")


def drop_ticked_references(doc: Document, lines: list[str]) -> None:
    """Drop each ticked reference from its chain (module doc)."""
    for c in doc.chains:
        if len(c.parts) < 3 or c.rels[-1] not in _NEAR or not _TICK.search(c.text) or c.place.cell is not None:
            continue
        last = c.parts[-1]
        n = plain_number(last.expr) if isinstance(last, ExprPart) else None
        if n is None or "." not in n.text:
            continue
        before = "\n".join(lines[:max(0, c.place.line - 1)])
        if re.search(r"(?<![\d.])" + re.escape(n.text) + r"(?![\d.])", before):
            c.parts = c.parts[:-1]
            c.rels = c.rels[:-1]
