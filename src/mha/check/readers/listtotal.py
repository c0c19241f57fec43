"""A list of named numbers closed by its total: `scores: LA -> 3, NIÑA -> 9, PEQUEÑA -> 3, COME -> 0, FRUTA -> 0 =
15` (t213b, a Spanish exercise sheet).  The statements split at the commas, and the last one read `FRUTA -> 0 = 15`,
the claim "0 = 15".  The `= 15` is the total of the whole list: the last chain becomes `3 + 9 + 3 + 0 + 0 = 15`,
judged as the sum it is.

Only a plain run counts: on one line, items each a name, an arrow or a colon, and one plain number (the first may
carry a caption before it: `scores: LA -> 3`), two or more, the last one followed by `= N` and nothing else.
"""

from __future__ import annotations

from ..numbers import Lit, Op, plain_number
from ..objects import Chain, Document, ExprPart, LabelPart

_NAMING = ("→", ":", "：")
_LEAST = 2


def _item(c: Chain) -> bool:
    """`NAME -> 3` (or `caption: NAME -> 3`): a name, then one plain number."""
    parts, rels = c.parts, c.rels
    if len(parts) == 3 and isinstance(parts[0], LabelPart):
        parts, rels = parts[1:], rels[1:]
    return len(parts) == 2 and isinstance(parts[0], LabelPart) and isinstance(parts[1], ExprPart) and \
        rels == [rels[0]] and rels[0] in _NAMING and plain_number(parts[1].expr) is not None


def _closing(c: Chain) -> bool:
    """`NAME -> 0 = 15`: an item and its list's total."""
    return len(c.parts) == 3 and c.rels[0] in _NAMING and c.rels[1] == "=" and \
        isinstance(c.parts[0], LabelPart) and all(isinstance(p, ExprPart) and plain_number(p.expr) is not None
                                                  for p in c.parts[1:])


def close_list_totals(doc: Document) -> None:
    """Rewrite each list's closing chain as the sum of the list (module doc)."""
    chains = doc.chains
    for k, c in enumerate(chains):
        if not _closing(c):
            continue
        run = []
        j = k - 1
        while j >= 0 and chains[j].place.line == c.place.line and chains[j].place.cell == c.place.cell and \
                _item(chains[j]):
            run.insert(0, chains[j])
            j -= 1
        if len(run) + 1 < _LEAST:
            continue
        terms = [r.parts[-1] for r in run] + [c.parts[1]]
        total = Op("+", tuple(Lit(plain_number(t.expr)) for t in terms))
        text = " + ".join(t.text for t in terms)
        chains[k] = Chain([LabelPart("total of the list"), ExprPart(total, text), c.parts[2]], ["=", "="],
                          c.place, c.text, c.context)
