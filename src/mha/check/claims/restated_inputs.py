"""Inputs printed again: an object with no name of its own that restates a row of a printed input (digit for
digit), and a head's slice of Q, K or V printed after that input was given again with other values.  Neither is
a quantity of the inferred chain to judge (claims/array.py asks)."""

from __future__ import annotations

from ..infer import Obj, _family
from ..infer.refute import other_values


def restated_input(objs: list[Obj], o: Obj) -> str | None:
    """An object with no name of its own whose numbers are, digit for digit, a row of a printed input the
    chain does not start from (`"가" → [0.1, 0.1, 0.1, 0.2]` beside X's row 4 when the chain starts from the
    scores): "row 4 of X printed at line 55", else None."""
    if (o.ref is not None and o.ref.strong) or o.slices != 1 or o.val is None or o.val.shape[0] != 1:
        return None
    texts = [n.text if n is not None else None for n in o.a.rows[0]]
    for x in objs:
        if x is o or x.ref is None or not x.ref.strong or not set(x.ref.nodes) <= {"X", "W_Q", "W_K", "W_V"} or \
                x.slices != 1 or x.val is None or x.val.shape[1:] != o.val.shape[1:]:
            continue
        for i, row in enumerate(x.a.rows):
            if row is not None and [n.text if n is not None else None for n in row] == texts:
                return f"row {i + 1} of {x.ref.show()} printed at line {x.a.line}"
    return None


def after_given_again(judge, o: Obj, node: str) -> bool:
    """Is `node` (Q, K or V, given) printed again with other values in another section, after the one the
    configuration takes and before o?"""
    given = [x for x in judge.objs if x.a.id in judge.uses and x.ref is not None and node in _family(x.ref)]
    if not given:
        return False
    first, at = max(x.a.place.order for x in given), o.a.place.order
    taken = {judge.section_of(x.a.place) for x in given}
    for x in judge.objs:
        if x.a.id in judge.uses or x.ref is None or not x.ref.strong or x.ref.head is not None or \
                x.ref.row is not None or node not in x.ref.nodes or x.val is None:
            continue
        if first < x.a.place.order < at and judge.section_of(x.a.place) not in taken and \
                any(other_values(x, g) for g in given):
            return True
    return False
