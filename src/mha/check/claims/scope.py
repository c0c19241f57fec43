"""Scopes: which parts of a document the inferred configuration is about.

A document can hold several examples (a chapter that first computes attention without weights and then with seeded
ones, an exam of independent questions, a slide deck that later quotes GPT-3's sizes).  The configuration is
inferred from the printed objects it explains; a section (the text between two headings, slide frames included) in
which it explains nothing is another example's, or prose about other models.  A size, a shape or a single number
there that disagrees with the configuration is not a slip of this example: it is reported as not checked.  When the
configuration explains no printed object beyond its own inputs, it identifies nothing, and nothing is judged
against it (arithmetic is still checked against its own printed terms).
"""

from __future__ import annotations

import bisect
from typing import Any

from ..objects import Place
from ..report import NotChecked
import numpy as np

from .identity import AGREE_MIN, evidence, identifies


class Scopes:
    """Judge methods: the sections the configuration explains, and the claims outside them."""

    def mark_scopes(self, plans: dict[int, Any]) -> None:
        """The sections holding a printed object the configuration explains (an input it takes, or an object
        most of whose cells match)."""
        self._heading_keys = sorted(p.order for p in self.doc.headings)
        self.explained_sections: set[int] = set()
        self.foreign_sections: set[int] = set()       # sections whose printed objects the configuration misses
        self.explained_objects = 0
        strong: set[int] = set()                       # sections explained by more than chance-prone matches
        taken: dict[int, int] = {}                     # inputs the configuration takes, by section
        foreign: dict[int, int] = {}                   # objects it does not explain, by section
        reshaped: set[int] = set()                     # sections naming an input of another shape than its own
        held: set[int] = set()                         # sections with an object that holds, informatively
        for o in self.objs:
            plan = plans.get(o.a.id)
            section = self.section_of(o.a.place)
            if o.a.id in self.uses:
                taken[section] = taken.get(section, 0) + 1
                continue
            if self._other_width(o, plan):
                reshaped.add(section)
            if plan is None or o.val is None or o.val.size < 2:
                continue
            if plan["kind"] == "holds" and evidence(o.val.ravel(), np.ones(o.val.size, bool)) >= AGREE_MIN:
                held.add(section)
            hit = plan.get("hit")
            if hit is not None and _named_another_input(o, hit):
                foreign[section] = foreign.get(section, 0) + 1
                continue
            if plan["kind"] == "holds" and hit is not None and self._copy_of_one_key(o):
                continue
            if (plan["kind"] == "holds" and hit is not None) or \
                    (plan["kind"] == "wrong" and hit is not None and identifies(o, hit)
                     and not self._rebound(o, hit)):
                self.explained_sections.add(section)
                self.explained_objects += 1
                if plan["kind"] == "wrong" or evidence(o.val.ravel(), np.ones(o.val.size, bool)) >= AGREE_MIN:
                    strong.add(section)
            elif plan["kind"] != "holds":
                self.foreign_sections.add(section)
                foreign[section] = foreign.get(section, 0) + 1
        for section, n in taken.items():
            # a section is the example's for an input taken from it, unless that input stands among more printed
            # objects the configuration does not explain (a W^O taken from a later example with heads of its own)
            if section in self.explained_sections or foreign.get(section, 0) <= n:
                self.explained_sections.add(section)
                strong.add(section)
        self.foreign_sections -= self.explained_sections
        # a section that says another example starts ("## Another example") is not this one's unless it explains
        # something there, even with no printed object in it (a reading in words, a sum written out)
        # (k1 = [1, 0] under "7. Exercise" matching the first example's k1 by chance does not make it the same one)
        self.new_example_sections = {self.section_of(p) for p in self.doc.openers} - strong
        # "Query = [0, 1]" where the example's queries have three entries: the section gives inputs of its own, so
        # what it computes is its own example's, unless something there holds under this one
        self.reshaped_sections = reshaped - set(taken) - held
        self.new_example_sections |= self.reshaped_sections

    def _copy_of_one_key(self, o: Any) -> bool:
        """An output that repeats an input of a configuration with one key: every weight is 1, the output is V, and
        with identity weights that is the input again (a model's token ids printed as 入力 and again as 出力).  The
        match says nothing about the example, so it explains no section."""
        if self.t is None or self.t.config.S != 1:
            return False
        inputs = [u.val for u in self.objs if u.a.id in self.uses and u.val is not None]
        return any(v.shape == o.val.shape and np.allclose(v, o.val) for v in inputs)

    def _other_width(self, o: Any, plan: Any) -> bool:
        """An object named as an input (Q, K, V, X) with another width than every view of that input here."""
        if o.ref is None or not o.ref.strong or o.val is None or o.val.ndim != 2 or self.vs is None:
            return False
        families = {_INPUTS[n] for n in o.ref.nodes if n in _INPUTS}
        if len(families) != 1 or (plan is not None and plan["kind"] == "holds" and plan.get("hit") is not None and
                                  getattr(plan["hit"].view, "node", None) in o.ref.nodes):
            return False
        same = [v for v in self.vs.views if _INPUTS.get(v.node) in families and np.ndim(v.M) == 2]
        return bool(same) and all(v.M.shape[1] != o.val.shape[1] for v in same)

    def section_of(self, place: Place) -> int:
        """How many headings come before this place."""
        return bisect.bisect_right(self._heading_keys, place.order)

    def in_scope(self, place: Place) -> bool:
        """Is this place in a section about the inferred example?"""
        if self.t is None or self.mapping_given:
            return True
        section = self.section_of(place)
        return self.explained_objects > 0 and section in self.explained_sections and \
            section not in self.new_example_sections

    def before_the_example(self, place: Place) -> bool:
        """Is the place out of the example's sections, in a section before the first one that gives its inputs?"""
        if self.t is None or self.mapping_given or self.in_scope(place):
            return False
        firsts = [o.a.place for o in self.objs if o.a.id in self.uses]
        if not firsts:
            return False
        first = min(firsts, key=lambda p: p.order)
        return place.order < first.order and self.section_of(place) < self.section_of(first)

    def example_sizes(self) -> set[int]:
        """Every size of the inferred example: lengths, widths, heads, batch (and 1)."""
        c = self.t.config
        out = {1, c.B, c.T, c.S, c.n_heads, c.d_k, c.d_v, c.d_out, c.G, c.n_heads * c.d_k, c.n_heads * c.d_v}
        if c.d_model is not None:
            out.add(c.d_model)
        return {int(x) for x in out if x is not None}

    def outside(self, place: Place, what: str, sizes: list[int] | None = None) -> bool:
        """Report a disagreeing claim outside the example's sections as not checked (True), or say it is in.

        A section with no printed object at all (a summary of shapes, a slide of arithmetic) is still the
        example's when the sizes the claim uses (if any) are all the example's own (3×4 written 4×3): only new
        sizes, or printed objects the configuration does not explain, open a new scope."""
        if self.in_scope(place):
            return False
        if self.explained_objects and self.section_of(place) not in self.foreign_sections | self.new_example_sections and \
                (sizes is None or set(sizes) <= self.example_sizes()):
            return False
        why = ("the inferred configuration explains no printed object beyond its inputs" if not
               self.explained_objects else "nothing in its section matches the inferred configuration (another "
               "example, or prose about another model)")
        if not any((n.line, n.cell, n.what) == (place.line, place.cell, what) for n in self.not_checked):
            self.not_checked.append(NotChecked(place.line, place.cell, what, why))
        return True


_INPUTS = {"X": "X", "Q": "Q", "Qh": "Q", "K": "K", "Kh": "K", "V": "V", "Vh": "V", "W_Q": "W_Q", "W_K": "W_K",
           "W_V": "W_V", "W_O": "W_O"}


def _named_another_input(o: Any, hit: Any) -> bool:
    """A printed input named as one (K) whose numbers are another input's (X) by chance: the first example's K
    written with the same 0/1 rows as a later example's X says nothing about the later example's scope."""
    node = getattr(getattr(hit, "view", None), "node", None)
    named = [r for r in ([o.ref] if o.ref is not None else []) + list(o.refs) if r is not None and r.strong]
    if node not in _INPUTS or not named:
        return False
    families = {_INPUTS.get(n) for r in named for n in r.nodes}
    return None not in families and _INPUTS[node] not in families

