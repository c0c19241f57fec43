"""Rebinding: a notebook or script that gives an input new values in code opens another example.

Code that assigns a literal to an input's name (`X = np.array([...])`, `Q = np.array([1.0, 0.0])`, `K = [[...]]`)
defines that input; it restates nothing.  When the literal is not the value the inferred configuration takes for
that name, and it comes after the object the configuration took it from, everything printed after it (up to the
next object the configuration uses) is about the new values: another example, not judged against this one.  A
coincidence of a few entries (6 of 9 cells of a 0/1 matrix) identifies nothing here, since the code says outright
that the name now means something else.  The other example ends where the configuration's begins again: at an
object it uses or explains by its values (an illustration in a code block, `Q_total = np.array(...)` of other
sizes, is followed by the notebook's own printouts).
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from ..infer import Obj
from ..report import NotChecked
from .identity import identifies
from .stale import operand_names

_INPUTS = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V")
_STARTS = ("QKt", "S", "A")             # what an example may start from after X (infer/starts.py)


class Rebinding:
    """Judge methods: the code literals that give an input other values, and what is printed after them."""

    def rebinding_before(self, o: Obj) -> Obj | None:
        """The code literal that last rebound an input before this object, when no used input came after it."""
        if not hasattr(self, "_rebinds"):
            self._rebinds = self._find_rebinds() + self_updates(self)
        if not self._rebinds:
            return None
        key = o.a.place.run_order
        before = [r for r in self._rebinds if r.a.place.run_order <= key]
        if not before:
            return None
        rebinds = {r.a.id for r in self._rebinds}
        mine = self._explained_node(o)
        # the latest rebinding that still holds for this object: one of a weight whose printouts come after it
        # unchanged (K printed as the configuration gives it after W_K was given other values) is the
        # configuration's example again, and a weight's rebinding speaks only of what is computed from it
        for last in sorted(before, key=lambda r: r.a.place.run_order, reverse=True):
            if last is o:
                return last                   # the literal that gives the input other values: not judged
            after = _DOWNSTREAM.get(_rebound_node(last))
            if after is not None and mine is not None and mine not in after and mine != _rebound_node(last):
                continue
            if any(self._example_again(x, o, last, after) for x in self.objs
                   if x.a.id not in rebinds and last.a.place.run_order < x.a.place.run_order <= key):
                return None
            return last
        return None

    def _example_again(self, x: Obj, o: Obj, last, after: set | None) -> bool:
        """Does x, printed after the rebinding `last`, show the configuration's example again: an input it uses, or
        an object it explains (all of it, or most of it with its wrong cells scattered: a whole row that disagrees is
        what a changed token leaves in Q, the other rows as they were)?  For a weight's rebinding only what is
        computed from that weight is a witness, and the object judged is none (most of a Q computed from a W_Q with
        one row changed still matches the configuration's Q)."""
        if x is o and after is not None:
            return False
        if not (x.a.id in self.uses or self._explained(x) and not self._row_changed(x)):
            return False
        return after is None or self._explained_node(x) in after or \
            x.a.id in self.uses and _rebound_node(x) == _rebound_node(last)

    def _explained_node(self, x: Obj) -> str | None:
        plan = self.plans.get(x.a.id)
        hit = plan.get("hit") if plan else None
        return hit.view.node if hit is not None and hit.view is not None else None

    def _row_changed(self, x: Obj) -> bool:
        """Does some row (of two cells or more) of a mostly matching object disagree in every cell?"""
        plan = self.plans.get(x.a.id)
        if plan is None or plan["kind"] == "holds" or plan.get("hit") is None:
            return False
        ok = np.asarray(plan["hit"].ok, dtype=bool)
        return ok.ndim == 2 and ok.shape[1] >= 2 and bool((~ok).all(axis=1).any())

    def _explained(self, x: Obj) -> bool:
        """Does the configuration explain this object by its values (all of it, or most of it: identified)?"""
        plan = self.plans.get(x.a.id)
        if plan is None or plan.get("hit") is None or x.val is None:
            return False
        hit = plan["hit"]
        return plan["kind"] == "holds" or (plan["kind"] == "wrong" and identifies(x, hit))

    def _find_rebinds(self) -> list[Obj]:
        """Code literals of an input's name that the configuration does not take, unlike its value (before the
        used input they are an earlier example's, after it a later one's)."""
        if self.t is None or not self.uses:
            return []
        out = []
        # a start after X names its input too: `scores = np.array([0.5, 2.2, 0.7])` after the scores the example
        # starts from is other scores, not those scores scaled
        inputs = set(_INPUTS) | {n for x in self.objs if x.a.id in self.uses and x.ref is not None
                                 for n in x.ref.nodes if n in _STARTS}
        best = getattr(self.inf, "best", None)
        upstream = set()
        if best is not None and best.cand.dims["mode"].value != "X":
            # a start after X (Q, K, V printed): X and the weights in code above it are upstream of it, untaken,
            # not a new example (`W_k = np.array(...)` above the printed K it computes); below it they are one
            first = min((x.a.place.run_order for x in self.objs if x.a.id in self.uses), default=None)
            upstream = {x.a.id for x in self.objs if first is not None and x.a.place.run_order < first}
        starts = {(x.a.label or "").strip() for x in self.objs if x.a.id in self.uses}
        for x in self.objs:
            if x.a.id in self.uses or x.ref is None or x.a.place.where != "code":
                continue
            mine = inputs - ({"X", "W_Q", "W_K", "W_V"} if x.a.id in upstream else set())
            if not any(set(r.nodes) & mine for r in x.refs):
                continue
            plan = self.plans.get(x.a.id)
            if plan is not None and plan["kind"] == "holds":
                continue                      # the same values written again: no new example
            if plan is not None and plan["kind"] == "layout" and plan.get("hit") is not None and plan["hit"].all:
                continue                      # the same values in another layout (W_Q.weight is W_Q transposed)
            if plan is not None and plan["kind"] == "wrong" and {n for r in x.refs for n in r.nodes} <= set(_STARTS) \
                    and self._explained(x) and (x.a.label or "").strip() not in starts:
                continue                      # scaled scores after the raw ones they start from, identified with a
                #                               cell slipped: no new example (the start's own name again is one)
            out.append(x)
        return out

    def not_checked_rebound(self, o: Obj, r: Obj, what: str) -> None:
        """One line for an object printed after a rebinding (or the rebinding literal itself)."""
        where = f"cell {r.a.place.cell}, line {r.a.line}" if r.a.place.cell is not None else f"line {r.a.line}"
        self.not_checked.append(NotChecked(o.a.line, o.a.place.cell, what, f"after {r.ref.show()} is given other "
                                           f"values in code ({where}): another example, not judged against the "
                                           "inferred one"))


_ARITH = re.compile(r"[-+*/@]")
_REORDER = re.compile(r"\b(?:flip|flipud|fliplr|roll)\s*\(")


def self_updates(j) -> list[SimpleNamespace]:
    """Code that gives an input new values computed from old ones (`X = 2 * X`, `x += pe`, `X[2] = [...]`, or
    `Q = X_swapped @ W_q` after `X_swapped = X[[1, 0, 2]]`): the name now means values that no literal states, so
    what is printed after it and not explained whole by the configuration is another example too.  A reshape, a
    cast or a transpose (no arithmetic, no indexing) keeps the values."""
    if j.t is None or not j.uses:
        return []
    out = []
    fresh: set[str] = set()             # unnamed variables holding an input's values changed (X_swapped, x2)
    for h in sorted((h for h in j.doc.hints if h.kind == "define"), key=lambda h: h.place.run_order):
        name, rhs = h.value
        item = re.match(r"\s*([A-Za-z_]\w*)\s*\[", name)        # X[2] = [...]: a row or an entry set in place
        base = item.group(1) if item else name
        nodes = _input_nodes(j, base)
        ops = operand_names(rhs)
        if not nodes:
            if re.fullmatch(r"[A-Za-z_]\w*", name) and j.inf.bases.label(name) is None and any(
                    (o in fresh or _input_nodes(j, o)) and _changes_values(rhs, o) for o in ops):
                fresh.add(name)
            continue
        same = [o for o in ops if _input_nodes(j, o) & nodes]
        if item or any(o in fresh for o in ops) or any(_changes_values(rhs, o) for o in same):
            out.append(SimpleNamespace(a=SimpleNamespace(place=h.place, line=h.place.line, id=None),
                                       ref=SimpleNamespace(show=lambda name=name: name)))
    return out


def _input_nodes(j, name: str) -> set[str]:
    """The inputs a variable's name stands for (X, W_q, q, K, ...; not a row such as x_1)."""
    ref = j.inf.bases.label(name)
    if ref is None or not ref.strong or ref.row is not None:
        return set()
    return set(ref.nodes) & set(_INPUTS)


def _changes_values(rhs: str, operand: str) -> bool:
    """Does the expression compute other values from the operand (arithmetic, indexing, a flip), not only another
    layout of them?"""
    flat = re.sub(r"\([^()]*\)", "", rhs)
    return bool(_ARITH.search(flat) or re.search(rf"(?<![\w.]){re.escape(operand)}\s*\[", rhs)
                or _REORDER.search(rhs))


# what a rebound weight changes: only a printout of these shows the configuration's example is back (K, printed
# after W_Q was given other values, says nothing of Q)
_DOWNSTREAM = {
    "W_Q": {"Q", "Qh", "Qr", "QKt", "S", "E", "A", "O", "O_concat", "Y", "row_sum", "row_max"},
    "W_K": {"K", "Kh", "Kr", "QKt", "S", "E", "A", "O", "O_concat", "Y", "row_sum", "row_max"},
    "W_V": {"V", "Vh", "Vr", "O", "O_concat", "Y"},
}


def _rebound_node(r) -> str | None:
    ref = getattr(r, "ref", None)
    nodes = getattr(ref, "nodes", None)
    return nodes[0] if nodes else None
