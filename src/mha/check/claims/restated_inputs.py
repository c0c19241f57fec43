"""Inputs printed again: an object with no name of its own that restates a row of a printed input (digit for
digit), and a head's slice of Q, K or V printed after that input was given again with other values.  Neither is
a quantity of the inferred chain to judge (claims/array.py asks)."""

from __future__ import annotations

import numpy as np

from ..infer import Obj, _family
from ..infer.refute import other_values


def restated_input(objs: list[Obj], o: Obj) -> str | None:
    """An object with no name of its own whose numbers are, digit for digit, a row of a printed input the
    chain does not start from (`"가" → [0.1, 0.1, 0.1, 0.2]` beside X's row 4 when the chain starts from the
    scores): "row 4 of X printed at line 55", else None."""
    if o.slices != 1 or o.val is None or o.val.shape[0] != 1:
        return None
    texts = [n.text if n is not None else None for n in o.a.rows[0]]
    if o.ref is not None and o.ref.strong:
        # `x_1 = [1, 0, 0, 1]` quoted while the chain starts from the normalised X̃: that row of another X printed
        # before, not a row of the configuration's X
        if o.ref.row is None or not set(o.ref.nodes) <= {"X"}:
            return None
        for x in objs:
            if x is not o and x.ref is not None and x.ref.strong and set(x.ref.nodes) <= {"X"} and \
                    x.ref.row is None and x.slices == 1 and x.val is not None and o.ref.row < len(x.a.rows) and \
                    x.a.rows[o.ref.row] is not None and \
                    [n.text if n is not None else None for n in x.a.rows[o.ref.row]] == texts:
                return f"row {o.ref.row + 1} of {x.ref.show()} printed at line {x.a.line}"
        return None
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


# what a start after X takes as given, by the search's mode (infer/starts.py)
_GIVEN_NODES = {"scores": {"QKt", "S"}, "weights": {"A", "V", "Vh"},
                "QKV": {"Q", "K", "V", "Qh", "Kh", "Vh"}}


def given_restated(judge, o: Obj, node: str | None) -> bool:
    """A start after X takes its input as printed (the raw scores, the weights, Q, K and V); an object named as
    that input, not the one the configuration took, with other values is the input of another example (`scores =
    [3.0, -2.0, 1.0]` in a later block), not a wrong value of this one's."""
    best = judge.inf.best
    mode = best.cand.dims["mode"].value if best is not None else None
    nodes = _GIVEN_NODES.get(mode)
    if not nodes or node not in nodes or o.a.id in judge.uses or o.ref is None:
        return False
    if not o.ref.strong and not _echoes_a_literal(judge, o, nodes):
        return False
    if not set(o.ref.nodes) & nodes:
        return False
    # the very quantity the start took (the raw scores it starts from, not the scaled ones derived from them)
    plans = getattr(judge, "plans", {})
    taken = {p["hit"].view.node for i, p in plans.items() if i in judge.uses and p.get("hit") is not None
             and p["hit"].view is not None}
    if not taken:                        # the start's own inputs are not judged, so they have no plan
        scale = best.cand.dims.get("scale")
        unscaled = scale is None or scale.value in (None, "none", 1, 1.0)
        taken = {"scores": {"QKt"} | ({"S"} if unscaled else set()), "weights": {"A"}}.get(mode, nodes)
    if node not in taken:
        return False
    if mode != "QKV":
        return True
    # Q, K and V printed again in the same section are as often a copy with a slip in it: only another section's
    taken = {judge.section_of(x.a.place) for x in judge.objs if x.a.id in judge.uses}
    return judge.section_of(o.a.place) not in taken


def _echoes_a_literal(judge, o: Obj, nodes: set) -> bool:
    """A printout that repeats, in its own cell, a code literal named as the start's input (`raw_scores =
    np.array([0.2, 0.5, ...])`, then `print("Raw relevance scores:", raw_scores)`): the literal's values shown, its
    name lost to the words of the print."""
    if o.a.place.cell is None or o.a.place.where != "output" or o.val is None or o.lo is None:
        return False
    for x in judge.objs:
        if x is o or x.a.place.cell != o.a.place.cell or x.a.place.where != "code" or x.val is None or \
                x.ref is None or not x.ref.strong or not set(x.ref.nodes) & nodes or x.val.shape != o.val.shape:
            continue
        if np.all((x.val >= o.lo - 1e-12) & (x.val <= o.hi + 1e-12)):
            return True
    return False
