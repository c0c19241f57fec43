"""The rounded terms a document printed for a lone total: the exponentials on its line, a vector of them, or the
list the line above ends on ("e^{a}, e^{b}, e^{c} = 1.733, 1.448, 1.733", then "the sum is 4.914").  A total those
printed terms give is a rounding note, not a slip (a mixin of the arithmetic judging, claims/arith.py)."""

from __future__ import annotations

import re

from .. import numbers as nb
from ..numbers import Num
from ..objects import ArrayPart, Chain, ExprPart
from .roundedexps import as_printed, exps_over_row
from .target import _ops


class PrintedAddends:
    """Judge methods: the printed terms of a total."""

    def _exp_chains(self, c: Chain, line: int) -> list[Chain]:
        """The other chains on a line of c's cell that work an exponential out."""
        return [x for x in self.doc.chains if x is not c and x.place.line == line and x.place.cell == c.place.cell
                and any(isinstance(p, ExprPart) and "exp" in _ops(p.expr) for p in x.parts)]

    def _printed_addends(self, c: Chain, n: Num, names_sum: bool) -> list[float]:
        """[the sum] of the rounded terms the document printed for a lone total, when they give it: the
        exponentials on its own line ("e^0.2 = 1.22, e^0.5 = 1.65, sum 2.87"), or, for a total named as the
        row sum, the list of numbers the chain just before it ends on ("e^{a}, e^{b}, e^{c} = 1.733, 1.448,
        1.733", then "the sum is 4.914"): the rounded exponentials add up to the printed total."""
        same_line = self._exp_chains(c, c.place.line)
        terms = _exp_results(same_line)
        vals = [t.value for t in terms if t is not None]
        if len(vals) < 2:
            vals = exps_over_row([x for x in self.doc.chains if x.place.line == c.place.line
                                   and x.place.cell == c.place.cell],
                                  [[n.value for n in a.numbers] for a in self.doc.arrays if a.is_vector and
                                   (a.place.cell, a.place.line) == (c.place.cell, c.place.line)]) or vals
        if len(vals) < 2 and names_sum:
            # "exp: `[2.421, 1.528, 1.958]`，和 = 5.907": the exponentials printed as one vector on its line
            vals = next(([m.value for m in a.numbers] for a in self.doc.arrays if a.is_vector and
                         (a.place.cell, a.place.line) == (c.place.cell, c.place.line) and
                         re.search(r"(?i)\bexp|e\^|指数", a.label or "") and
                         abs(sum(m.value for m in a.numbers) - n.value) <= n.half + 1e-9), vals)
        if len(vals) < 2 and names_sum:
            prev = [x for x in self.doc.chains if x.place.cell == c.place.cell
                    and c.place.line - 3 <= x.place.line < c.place.line]
            # `e^{0.55}, e^{0.37} = 1.733, 1.448` a line or two above, read as one equation each (workedlists.py)
            listed = [t.value for t in _exp_results(self._exp_chains(c, prev[-1].place.line)) if t is not None] \
                if prev else []
            if len(listed) >= 2 and abs(sum(listed) - n.value) <= n.half + 1e-9:
                return [sum(listed)]
            # one exponential a line ("- e^5 = 148.41", "- e^0 = 1.00", ...), the sum under them
            above = self._exps_listed_above(c)
            if len(above) >= 2 and abs(sum(above) - n.value) <= n.half + 1e-9:
                return [n.value]
            last = prev[-1].parts[-1] if prev else None
            if isinstance(last, ArrayPart) and last.array.is_vector:
                vals = [n.value for n in last.array.numbers]    # exp([...]) = [1.733, 1.292, 1.421], then "sum ="
            else:
                vals = _listed_numbers(getattr(last, "text", "") or "")
        if len(vals) >= 2 and abs(sum(vals) - n.value) <= n.half + 1e-9:
            return [sum(vals)]
        worked = _worked_values(same_line)
        # each exponential as its own argument gives it, exact or rounded as printed (e^0 = 1 stays 1)
        if len(worked) >= 2 and len(worked) == len(terms) and None not in terms and \
                (n.contains(sum(worked)) or n.contains(sum(as_printed(t, w) for t, w in zip(terms, worked)))):
            return [n.value]         # one exponential printed wrong beside the sum (found on its own): what each
            #                          one's argument gives still makes the printed total
        return []

    def _exps_listed_above(self, c: Chain) -> list[float]:
        """The printed exponentials of the lines just above c, one or more a line, up to the first line above
        that holds a chain and no exponential (blank lines skipped)."""
        out: list[float] = []
        for line in range(c.place.line - 1, max(0, c.place.line - 9), -1):
            on = [x for x in self.doc.chains if x.place.cell == c.place.cell and x.place.line == line]
            if not on:
                continue
            chains = self._exp_chains(c, line)
            printed = [t for t in _exp_results(chains) if t is not None]
            if not printed:
                break
            worked = _worked_values(chains)
            if len(worked) != len(printed) or any(abs(w - t.value) > t.half + 1e-9 for w, t in zip(worked, printed)):
                return []        # an exponential printed wrong: the sum that follows it is no rounding of its terms
            out = [t.value for t in printed] + out
        return out


_LISTED = re.compile(r"\s*[-+]?\d+(?:\.\d+)?(?:\s*,\s*[-+]?\d+(?:\.\d+)?)+\s*")


def _listed_numbers(text: str) -> list[float]:
    """The numbers of a part that is nothing but a comma list of them ("1.733, 1.448, 1.733"), else []."""
    return [float(x) for x in text.split(",")] if _LISTED.fullmatch(text) else []


def _exp_results(chains: list) -> list[Num | None]:
    """What each of these chains prints last: the value its exponential is given."""
    return [nb.plain_number(p.expr) for x in chains for p in x.parts[-1:] if isinstance(p, ExprPart)]


def _worked_values(chains: list) -> list[float]:
    """The value each `e^{x} ≈ y` on a line works out from its own argument (what the left side gives)."""
    out = []
    for x in chains:
        left = next((p for p in x.parts if isinstance(p, ExprPart)), None)
        if left is None or "exp" not in _ops(left.expr) or nb.has_symbols(left.expr):
            continue
        try:
            out.append(nb.face(left.expr))
        except (ArithmeticError, OverflowError, ValueError):
            continue
    return out
