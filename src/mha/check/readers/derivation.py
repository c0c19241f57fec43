"""A derivation written one line at a time, each line starting again with the same name:

    z1 = [0, 0.39, 0.39] + [0.39, 0, 0.39] + [0.22, 0.22, 0]
    z1 = [0 + 0.39 + 0.22, 0.39 + 0 + 0.22, 0.39 + 0.39 + 0]
    z1 = [0.61, 0.61, 0.78]

is one chain, z1 = ... = ... = ..., as a reader takes it: each line restates the same quantity.  Only a line that
follows a line of arithmetic (an operation, or a bracket whose entries are sums) goes on with it, so that a name
simply printed twice (a value, then its new value) is never read as one value equal to another."""

from __future__ import annotations

import re

from ..numbers import Op
from ..objects import ArrayPart, Chain, Document, ExprPart, LabelPart

_PLAIN = re.compile(r"\s*[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?\s*")


def _arithmetic(part: object) -> bool:
    """Is this term worked arithmetic (a sum, a product), not a value as printed?"""
    if isinstance(part, ExprPart):
        return isinstance(part.expr, Op)
    if isinstance(part, ArrayPart):
        return any(c is not None and not _PLAIN.fullmatch(c.text) for r in part.array.rows if r is not None
                   for c in r)
    return False


_RELATION = re.compile(r"=|≈|\\approx")


def continue_derivation(doc: Document, chain: Chain) -> bool:
    """Append this chain's terms to the chain of the line above when both start with the same name and the one
    above ends in arithmetic (True: merged, not to be stored on its own)."""
    if not doc.chains or len(chain.parts) < 2 or not isinstance(chain.parts[0], LabelPart):
        return False
    prev = doc.chains[-1]
    end = getattr(prev, "end_line", prev.place.line)
    if prev.place.cell != chain.place.cell or chain.place.line != end + 1 or len(prev.parts) < 2 or \
            not isinstance(prev.parts[0], LabelPart) or prev.parts[0].text.strip() != chain.parts[0].text.strip():
        return False
    if not chain.rels or chain.rels[0] not in ("=", "≈") or not prev.rels or prev.rels[0] not in ("=", "≈") or \
            not _arithmetic(prev.parts[-1]) or any(isinstance(p, LabelPart) for p in chain.parts[1:]):
        return False
    if not all(_RELATION.search(c.text) for c in (prev, chain)):
        return False        # `Batch 0/10` over `Batch 10/10`: a program's progress, no relation written on either line
    prev.parts.extend(chain.parts[1:])
    prev.rels.extend(chain.rels)
    prev.end_line = chain.place.line
    return True
