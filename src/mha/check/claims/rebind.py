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

from ..infer import Obj
from ..objects import Place
from ..report import NotChecked
from .identity import identified

_INPUTS = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V")


class Rebinding:
    """Judge methods: the code literals that give an input other values, and what is printed after them."""

    def rebinding_before(self, o: Obj) -> Obj | None:
        """The code literal that last rebound an input before this object, when no used input came after it."""
        if not hasattr(self, "_rebinds"):
            self._rebinds = self._find_rebinds()
        if not self._rebinds:
            return None
        key = _key(o.a.place)
        before = [r for r in self._rebinds if _key(r.a.place) <= key]
        if not before:
            return None
        last = max(before, key=lambda r: _key(r.a.place))
        rebinds = {r.a.id for r in self._rebinds}
        if any(_key(last.a.place) < _key(x.a.place) <= key and x.a.id not in rebinds and
               (x.a.id in self.uses or self._explained(x)) for x in self.objs):
            return None                  # the configuration's example again: an input it uses, or an object it explains
        return last

    def _explained(self, x: Obj) -> bool:
        """Does the configuration explain this object by its values (all of it, or most of it: identified)?"""
        plan = self.plans.get(x.a.id)
        if plan is None or plan.get("hit") is None or x.val is None:
            return False
        hit = plan["hit"]
        return plan["kind"] == "holds" or (plan["kind"] == "wrong" and identified(hit.n_ok, x.val.size))

    def _find_rebinds(self) -> list[Obj]:
        """Code literals of an input's name that the configuration does not take, unlike its value (before the
        used input they are an earlier example's, after it a later one's)."""
        if self.t is None or not self.uses:
            return []
        out = []
        for x in self.objs:
            if x.a.id in self.uses or x.ref is None or x.a.place.where != "code":
                continue
            if not any(set(r.nodes) & set(_INPUTS) for r in x.refs):
                continue
            plan = self.plans.get(x.a.id)
            if plan is not None and plan["kind"] == "holds":
                continue                      # the same values written again: no new example
            out.append(x)
        return out

    def not_checked_rebound(self, o: Obj, r: Obj, what: str) -> None:
        """One line for an object printed after a rebinding (or the rebinding literal itself)."""
        where = f"cell {r.a.place.cell}, line {r.a.line}" if r.a.place.cell is not None else f"line {r.a.line}"
        self.not_checked.append(NotChecked(o.a.line, o.a.place.cell, what, f"after {r.ref.show()} is given other "
                                           f"values in code ({where}): another example, not judged against the "
                                           "inferred one"))


def _key(p: Place) -> tuple[int, int]:
    return (p.cell or 0, p.line)
