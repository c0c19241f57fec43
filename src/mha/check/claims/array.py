"""The array claim: a printed matrix or vector, judged against the intermediate it was attributed to
(attribute.py), cell by cell at each cell's own precision; an elided matrix (⋯, ⋮) is judged in elided.py."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import numbers as nb
from ..infer import Hit, Obj, _family, alignments
from .maskedcells import live_under_mask, mask_buffer, masked_cells
from ..numbers import Num
from ..report import Finding, NotChecked
from .common import _show_view, _simple_kind
from .identity import _short, _weights, identifies, named_as, says_the_other_scale
from .premask import live_score, premask_hit
from .restated_inputs import after_given_again, restated_input
from .rounding import written_exponent
from .rounding import _double_rounding, share_like
from .wrongaxis import column_softmax_finding
from .assumed import above_its_start, copy_of_an_input, rows_unlike_unprinted, split_assumed
from .setaside import set_aside
from .layout import LayoutJudging, _primed, _what


@dataclass
class ArrayClaim:
    obj: Obj


_OWN_TERMS = "follows from the rounded terms printed before it"
_OWN_FACTORS = "follows from the factors printed with it"


class ArrayJudging(LayoutJudging):
    """Judge methods for ArrayClaim."""

    def _from_givens(self) -> bool:
        """Does the configuration start from Q, K and V (or the scores, or the weights) as printed?  Then queries from
        another sequence than the keys are what it models, as cross-attention has them."""
        best = getattr(self.inf, "best", None) if getattr(self, "inf", None) is not None else None
        return best is not None and best.cand.dims["mode"].value in ("QKV", "scores", "weights")

    def judge_array(self, o: Obj, plan: dict[str, Any]) -> None:
        """An array by what attribution made of it (plan["kind"]): holds, elided, layout, shape, unknown or wrong."""
        a = o.a
        kind = plan["kind"]
        why = set_aside(self, o, plan)
        if why is not None:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), why))
            return
        match kind:
            case "elided":
                self.judge_elided(o)          # claims/elided.py
            case "holds":
                self.n_claims += 1
                self.n_numbers += o.n
            case "layout":
                self._judge_layout(o, plan)
            case "shape":
                self._judge_misshaped(o, plan)
            case "unknown":
                self._judge_unknown(o, plan)
            case _ if not self.in_section(a.place, o) and (
                    (unlike := share_like(self, o, plan["hit"]) < 2 / 3) or self.sections_before(a.place) or
                    self.far_after(a.place) and not named_as(o, plan["hit"])) \
                    and not self.named_and_fed(o, plan["hit"]):
                # under a start after X, a mostly different object away from the example is another example
                why = "mostly unlike what it is matched with" if unlike else \
                    "a section far after the example's" if not self.sections_before(a.place) else \
                    "a section before the example's"
                self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), f"{why}, away from the inferred "
                                                   "example (another example?)"))
            case _ if self.mask_fill_cells(o, plan["hit"]):
                self.not_checked_mask_fill(o, _what(o))
            case _ if self.rebinding_before(o) is not None:
                self.not_checked_rebound(o, self.rebinding_before(o), _what(o))
            case _:
                self._judge_wrong_cells(o, plan)

    def _judge_misshaped(self, o: Obj, plan: dict[str, Any]) -> None:
        """A labelled array whose shape no view of that name has: the name reused with new sizes (another example,
        or another quantity of the same name), not a slip of this one."""
        a = o.a
        views = plan["views"]
        want = sorted({tuple(v.M.shape) for v in views})
        label = o.ref.show()
        if o.val is not None and o.val.size == 1:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "a single number labelled "
                                               f"{label}"))
            return
        self.not_checked.append(NotChecked(
            a.line, a.place.cell, _what(o), f"its shape is not that of {label} in the inferred configuration ("
            + " or ".join("×".join(map(str, s)) for s in want[:3]) + "): another example, or another quantity "
            "of that name"))

    def _judge_unknown(self, o: Obj, plan: dict[str, Any]) -> None:
        """An array that matches nothing: not checked, with its nearest view (a label alone does not identify
        it: a matrix none of whose cells match is another example's, or computed from weights never printed)."""
        a = o.a
        hit = plan["hit"]
        nearest = distance = None
        if hit is not None and hit.view is not None:
            # the closest reading of those that agree as much (the preferred one may be further off: "row 1, 0.131"
            # where row 3 is 0.02 away)
            ties = [h for h in alignments(o, self.vs) if h.view is not None and h.n_ok == hit.n_ok
                    and (o.ref is None or h.view.node in _family(o.ref)) and h.exact.shape == o.val.shape] \
                if self.vs is not None and o.val is not None else []
            first = hit
            hit = min([hit] + ties, key=lambda h: (round(_max_difference(o, h), 9) if _max_difference(o, h) is not None
                                                   else np.inf, h.view.node != first.view.node))
            nearest = _show_view(hit)
            distance = _max_difference(o, hit)
        axis = column_softmax_finding(self, o)
        if axis is not None:                 # np.exp(S) / np.exp(S).sum(axis=0): every cell says so
            self.n_claims += 1
            self.add(axis)
            return
        first = plan["hit"]
        if o.ref is not None and first is not None and first.view is not None and \
                first.view.node in _family(o.ref) and self.named_and_fed(o, first):
            self._judge_wrong_cells(o, plan)   # a named pair, a little off what its printed inputs give: a slip
            return
        reason = ("labelled " + o.ref.show() + " but matches nothing of that name" if o.ref is not None
                  else "no label, and it matches no intermediate")
        if o.ref is not None and self.upstream(o):
            after = all(set(r.nodes) <= {"O", "O_concat", "Y"} for r in o.refs)
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "labelled " + o.ref.show() + (
                ", which the inferred start cannot compute (no V is given with it)" if after else
                ", which comes before where the inferred chain starts"), nearest, distance))
            return
        self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), reason, nearest, distance))

    def upstream(self, o: Obj) -> bool:
        """Labelled only as what comes before the chain's start (X or a weight when Q, K, V are given; Q or K
        when the scores are): there is nothing to compare it with (infer/starts.py)."""
        c = self.t.config if self.t is not None else None
        if c is None or not c.given_qkv:
            return False
        before = {"X", "W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V"} | set(getattr(self.t, "hidden", ()))
        return all(set(r.nodes) <= before for r in o.refs)

    def _judge_wrong_cells(self, o: Obj, plan: dict[str, Any]) -> None:
        """An identified array with some wrong cells: one finding (or rounding note) per wrong cell.

        Identity before verdict: a cell is called wrong only when the object is identified without it, by most
        of its other cells (see `identified`; a cell that follows from the rounded values printed before it
        agrees); an object that mostly disagrees is one "not checked" line with its nearest reading, never one
        finding per cell."""
        hit = self._hit_to_judge(o, plan)
        if hit is None:
            return
        plan = {**plan, "hit": hit}
        cells = self._wrong_cells(o, hit)
        agree = np.array(hit.ok, dtype=bool).reshape(o.val.shape)
        for i, j, *_, note in cells:
            # the object's own written terms giving its printed value say the arithmetic holds, not which
            # quantity of the configuration it is: no evidence of identity
            agree[i, j] |= bool(note) and not note.startswith((_OWN_TERMS, _OWN_FACTORS))
        if rows_unlike_unprinted(self, o, hit, agree):
            self.doubt(o, hit)
            return
        if (not identifies(o, hit, agree, masked_cells(o, hit)) or copy_of_an_input(self, o, hit) or
                above_its_start(self, o, hit)) and \
                not self.named_and_fed(o, hit) and not self.projection_named(o, hit, agree):
            if self._judge_unidentified(o, plan, cells):
                return
        if self._own_terms_unlike(o, hit, cells, agree):
            return
        self._cell_findings(o, plan, cells)

    def _hit_to_judge(self, o: Obj, plan: dict[str, Any]) -> Hit | None:
        """The reading an object with wrong cells is judged against (the scores before a causal mask when they
        explain more), or None when the object is set aside: another scope's, an input restated, named another
        thing, a version of its reading, or a mask printed in another form."""
        a = o.a
        hit: Hit = plan["hit"]
        if self._rebound(o, hit):
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), f"{o.ref.show()} is given other values "
                                               "in another section than the one the configuration takes: another "
                                               "example (a new scope), not judged against this one"))
            return None
        restated = restated_input(self.objs, o)
        if restated is not None:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "the same numbers as " + restated +
                                               ": an input restated, not a quantity of the chain"))
            return None
        if o.ref is not None and o.ref.strong and hit.view is not None and not any(
                hit.view.node in _family(r) for r in o.refs):
            # named one thing, most like another: the name is not overruled by values that partly agree
            self.doubt(o, hit)
            return None
        alt = plan.get("alt")
        if alt is not None and alt.all and _primed(o, alt):
            self.n_claims += 1                 # S' equal to S itself: the prime names a version, not a transpose
            self.n_numbers += o.n
            return None
        pre = premask_hit(self.t, self.vs, o, hit)        # scores printed in full before the causal mask
        if pre is not None and pre.n_ok > hit.n_ok:
            if pre.all:
                self.n_claims += 1
                self.n_numbers += o.n
                return None
            hit = pre
        why = self._mask_aside(o, hit)
        if why:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), why))
            return None
        return hit

    @staticmethod
    def _mask_aside(o: Obj, hit: Hit) -> str:
        """Why an object is a mask, or scores around a mask, in another form than the reading's (or "")."""
        if _before_or_after_mask(o, hit):
            return "the same matrix before or after a causal mask: it differs only above the diagonal"
        if hit.view is not None and hit.view.node == "mask" and int((~np.asarray(hit.ok, dtype=bool)).sum()) > 1:
            # a mask is a pattern: two cells or more unlike the causal one make another pattern (a padding mask
            # drawn beside it, another length), not slips in this one
            return ("a mask of another pattern than the configuration's (padding, another length?): not judged "
                    "against it")
        if mask_buffer(o, hit):
            return "a mask printed as a buffer of flags (nonzero where masked), not as the -∞ it adds to the scores"
        if live_under_mask(o, hit):
            return "the cells the mask hides are printed live: the step worked without the mask, not judged against it"
        return ""

    def _judge_unidentified(self, o: Obj, plan: dict[str, Any], cells: list[tuple]) -> bool:
        """An object its agreeing cells do not identify: one systematic mistake (one finding), a doubt, or a
        reading set aside.  False when it is judged cell by cell after all."""
        a, hit = o.a, plan["hit"]
        if cells and all(note and note.startswith((_OWN_TERMS, _OWN_FACTORS)) for *_, note in cells):
            # Q_2 = Y W_2^Q = [..][..] = [0.6, 0.7]: every cell the trace disputes, its own printed factors give;
            # a later token's projection (a decoder's one row), not a slip of the example's Q
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its own written factors give "
                                               f"every entry, and it is not {_show_view(hit)}: another "
                                               "example's values?"))
            return True
        alt = plan.get("alt")
        if alt is not None and alt.all and alt.view is not None and alt.view.variant == "unshifted" and \
                o.ref is not None and alt.view.node in _family(o.ref):
            # exp = [2.718, 2.718, 7.389]: the exponentials of the scores as they are, without the row max
            # taken off first; the same weights follow, a convention and no slip
            self.n_claims += 1
            self.n_numbers += o.n
            return True
        if alt is not None and alt.all and alt.how == "col" and o.val.shape[0] == 1 and alt.view is not None and \
                alt.view.node in ("K", "Kh") and "columns as the keys" in self.inf.best.cand.dims["mode"].label:
            # `k_1 = [1, 2]` where the configuration reads the printed keys' matrix by its columns: key 1 is its
            # first column, as the reading itself says, no other layout
            self.n_claims += 1
            self.n_numbers += o.n
            return True
        if o.ref is not None and o.ref.strong and alt is not None and alt.all and alt.view is not None and \
                alt.view.node in _family(o.ref) and not _primed(o, alt):
            # every cell is the labelled quantity's, in another layout (another head's, transposed)
            mistake = self.whole_cause(o, hit, alt) or (f"these are the values of {_show_view(alt)}",
                                                        "wrong_value")
            if mistake[1] == "wrong_head" and split_assumed(self, o, alt, _what(o)):
                return True
        elif hit.how == "col" and o.val.shape[0] == 1 and not named_as(o, hit):
            mistake = False      # a row across the line held against a column of some view: no slip names
            #                      it either (claims/identity.py, a row of one query)
        else:
            mistake = self._one_mistake(o, hit, cells)
        if isinstance(mistake, tuple) and mistake[1] == "transposed" and \
                (self._printed_transposed(a, o) or self._softmax_down_columns(a, o)):
            return True
        if isinstance(mistake, tuple) and mistake[1] == "missing_scale" and says_the_other_scale(
                o, self.mapping.get("scale") in (None, "1/sqrt(d_k)", "1/d_k"), self.doc.lines):
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "every entry has the other "
                                               "scale, as the words over it say: a setting shown, not a slip"))
            return True
        if mistake is False:
            self.doubt(o, hit)
            return True
        if isinstance(mistake, tuple):
            # one systematic mistake (another head's, the scale left out, entries swapped): one finding, at
            # the object's first wrong cell
            first = next((c for c in cells if not c[-1]), None)
            self.n_claims += 1
            self.n_numbers += o.n
            self.add(Finding(first[2].line or a.row_line(first[0]) if first else a.line, a.place.cell,
                             o.ref.show() if o.ref else _show_view(hit), _short(o), None, None,
                             self.step_of(hit.view.node), *mistake))
            return True
        return False

    def _own_terms_unlike(self, o: Obj, hit: Hit, cells: list[tuple], agree: np.ndarray) -> bool:
        """A row its own written terms give (or judge), too unlike the example's entry to be named that entry."""
        a = o.a
        own = nb.face_vector(a.prev_expr) if a.prev_expr is not None and o.val.shape[0] == 1 else None
        given = any(note and note.startswith((_OWN_TERMS, _OWN_FACTORS)) for *_, note in cells)
        if not (given or (own is not None and len(own) == o.n)) or identifies(o, hit, agree, masked_cells(o, hit)):
            return False
        # "o_3 = ⅓([1, 2] + [1, 0] + [1, 4]) = [1, 2]" with a value row changed for an exercise: its own terms
        # give it, and it is too unlike the example's entry to be named that entry; when they do not give it,
        # they judge it (claims/vector.py), not the entry it resembles in one cell
        if given:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its own written terms give it, but "
                                               f"it matches {_show_view(hit)} in only {hit.n_ok} of {o.n} entries "
                                               "(other values than the example's?)"))
        return True

    def _cell_findings(self, o: Obj, plan: dict[str, Any], cells: list[tuple]) -> None:
        """One finding (or rounding note) per wrong cell of an identified object."""
        a, hit = o.a, plan["hit"]
        self.n_claims += 1
        self.n_numbers += o.n
        whole = self.whole_cause(o, hit, plan.get("alt"))
        # (the entries' own [row, column] say which row: "A[3,2]", not "A row 3[3,2]")
        label = replace(o.ref, row=None).show() if o.ref is not None else _show_view(hit)
        step = self.step_of(hit.view.node) if hit.view is not None else "input"
        for i, j, num, exact, vi, vj, note in cells:
            if note:
                self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                                 exact, num.rounded(exact), step, note, "rounded_sum", "note"))
                continue
            if np.isneginf(exact) and np.isfinite(num.value):
                # `S = QKᵀ/2` printed before `S + M`: the score as it is before the mask covers it
                exact = live_score(self.t, self.vs, hit.view, vi, vj)
                if exact is None or num.contains(exact):
                    continue
            cause, kind2 = whole if whole else self.cell_cause(hit, vi, vj, num, o)
            self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{label}[{vi + 1},{vj + 1}]", num.text,
                             exact, num.rounded(exact), step, cause, kind2))

    def _one_mistake(self, o: Obj, hit: Hit, cells: list[tuple]) -> tuple[str, str] | bool:
        """Evidence of what a mostly-disagreeing object is, in its wrong cells themselves: (cause, kind) of one
        systematic mistake (the wrong cells hold each other's values; or two cells match and every other is the
        labelled quantity left unscaled, another head's, transposed), True when every wrong cell is a one-digit
        slip of its own value (each its own finding), False when nothing identifies it."""
        wrong = [c for c in cells if not c[-1]]
        if not wrong or hit.view is None:
            return False
        given = {"X", "W_Q", "W_K", "W_V", "W_O"} | ({"Q", "K", "V"} if self.t.config.given_qkv else set())
        if hit.view.node in given and len(wrong) >= 2 and o.a.id not in self.uses:
            return False             # an input printed again with several cells moved: another example's (mirrored keys)
        if o.val.size >= 3 and len(wrong) >= 2 and all(n.contains(x) for n, x in zip(
                sorted((c[2] for c in wrong), key=lambda n: n.value), sorted(c[3] for c in wrong))):
            axis = column_softmax_finding(self, o)        # the values of a column softmax may be the right ones,
            if axis is not None:                           # moved: the axis is the one mistake, said as such
                return axis.cause, axis.kind
            return self.whole_cause(o, hit, None) or ("swapped entries: the right values in another order",
                                                      "transposed")
        if hit.n_ok >= 1 and all(_digit_slip(num, x) for _, _, num, x, *_ in wrong) and \
                (o.ref is not None and o.ref.strong or 1.0 in _weights(o.val, hit.ok) or _decimals_agree(o, hit)):
            return True              # (unnamed, its matches must hold one value that is no bare 0, ±1 or small integer)
        if hit.n_ok < 2 or o.ref is None or not o.ref.strong:
            return False
        causes = {self.cell_cause(hit, vi, vj, num, o) for _, _, num, _, vi, vj, _ in wrong}
        kinds = {k for _, k in causes}
        if len(kinds) == 1 and kinds <= {"missing_scale", "wrong_head", "transposed"}:
            return min(causes, key=lambda c: c[0] or "")
        return False

    def _rebound(self, o: Obj, hit: Hit) -> bool:
        """An input (X, a weight, a Q/K/V given) printed again with other values after a heading: a new example.
        So is a head's slice of a Q, K or V given (Q_1 = its first columns) printed after its input was given
        again with other values: it is the new example's split."""
        if o.ref is not None and hit.view is not None and hit.view.node in ("Qh", "Kh", "Vh") and \
                self.t.config.given_qkv:
            return after_given_again(self, o, hit.view.node[0])
        if o.ref is None or hit.view is None or hit.view.node not in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V"):
            return False
        node = hit.view.node
        if self._exercise_given(o):
            return True
        if node in ("Q", "K", "V") and not self.t.config.given_qkv:
            return False
        given = [x for x in self.objs if x.a.id in self.uses and x.ref is not None and node in _family(x.ref)]
        return bool(given) and all(self.section_of(x.a.place) != self.section_of(o.a.place) for x in given)

    def _exercise_given(self, o: Obj) -> bool:
        """`## Exercise 2` ... "Given: v_1 = [1, 0], v_2 = [0, 2]": an input stated after "given" in a section that
        opens another exercise or example is that exercise's, whatever the first example's rows were."""
        section = self.section_of(o.a.place)
        if not self.doc.openers or section not in {self.section_of(p) for p in self.doc.openers}:
            return False
        at = (o.a.place.cell or 0, o.a.line)
        # ("**Let $q=[1,2]$, $k_1=[2,0]$, ...": the word and the givens on one line)
        return any(h.kind == "given" and self.section_of(h.place) == section and (h.place.cell or 0, h.place.line) <= at
                   for h in self.doc.hints)

    def _restates_approximation(self, o: Obj) -> bool:
        """Does the object print a row of values that the document declares approximate elsewhere (the same
        "[0.0, 0.5, 0.5]" in the prose and in the code under "approximate the above as follows")?"""
        if not hasattr(self, "_approx_rows"):
            self._approx_rows = {tuple(n.value for n in r) for x in self.objs if x.a.context.approx
                                 for r in x.a.rows if r and len(r) >= 2 and None not in r}
        return any(r and len(r) >= 2 and None not in r and tuple(n.value for n in r) in self._approx_rows
                   for r in o.a.rows)

    def _wrong_cells(self, o: Obj, hit: Hit) -> list[tuple]:
        """(i, j, printed, exact, row and column in the view, rounding note or None) of each disagreeing cell."""
        a = o.a
        out = []
        approx = a.context.approx or self._restates_approximation(o)
        for i, j in np.argwhere(~hit.ok):
            num = o.a.rows[i][j] if o.slices == 1 else _nth(o, i, j)
            if num is None:
                continue
            exact = float(hit.exact[i, j])
            vi, vj = _view_index(hit, i, j)
            note = self.rounded_predecessor(hit, vi, vj, num, a.place, approx)
            if not note and a.n_rows == 1 and (got := written_exponent(a.label, j, a.n_cols, num)) is not None:
                note = (f"{_OWN_TERMS} (e^x at the rounded x written beside it gives {got:.6g}); the exact "
                        f"{exact:.6g} rounds to {num.rounded(exact)}")
            if not note and a.prev_expr is not None:
                vec = nb.face_vector(a.prev_expr)
                if vec is not None and len(vec) == o.n and o.val.shape[0] == 1 and num.contains(vec[j]):
                    note = (f"{_OWN_TERMS} (they give {vec[j]:.6g}); the exact "
                            f"{exact:.6g} rounds to {num.rounded(exact)}")
            if not note and a.prev_factors is not None:
                got = _factors_product(a.prev_factors)       # [A] [V] = [...] with both factors printed
                if got is not None and got.shape == o.val.shape and num.contains(float(got[i, j])):
                    note = (f"{_OWN_FACTORS} (they give {float(got[i, j]):.6g}); the exact "
                            f"{exact:.6g} rounds to {num.rounded(exact)}")
            out.append((i, j, num, exact, vi, vj, note or _double_rounding(num, exact)))
        worked = [c for c in out if c[6] and c[6].startswith("follows from the rounded")]
        if len(out) >= 3 and 2 * len(worked) >= len(out):
            # most wrong cells are what the rounded values printed before it give: the rest are too, but for those
            # values' own rounding carried through the sum (a unit of the last digit or so), not slips of their own
            # (half is most: a 6×3 output worked from 4-decimal A and V, 11 of 17 cells within their own rounding)
            out = [c if c[6] else (*c[:6], self.rounded_predecessor(hit, c[4], c[5], c[2], a.place, approx,
                                                                      slack=2 * c[2].half)) for c in out]
        return out


def _digit_slip(num, x: float) -> bool:
    """Is the printed number its exact value with one usual slip: a dropped sign, two digits swapped, or one
    digit changed (the rest of the printed digits right)?"""
    if not np.isfinite(x):
        return False
    kind = _simple_kind(num, x)
    if kind != "wrong_value":
        return True
    a, b = num.text.lstrip("+-−"), num.rounded(x).lstrip("+-−")
    digits = sum(ch.isdigit() for ch in a.lstrip("0."))
    return len(a) == len(b) and digits >= 3 and sum(p != q for p, q in zip(a, b)) == 1 and (num.value < 0) == (x < 0)


def _before_or_after_mask(o: Obj, hit: Hit) -> bool:
    """Scores printed before the mask and again after it (-∞ above the diagonal): when the cells that disagree are
    above the diagonal of a square matrix and cover most of it, the document shows the matrix on the other side of a
    causal mask, not a slip (a slip fills in one masked entry)."""
    r, c = hit.ok.shape
    if r != c or r < 3 or o.slices != 1:
        return False
    bad = np.argwhere(~hit.ok)
    upper = r * (r - 1) // 2
    if not (len(bad) >= 2 and all(j > i for i, j in bad) and len(bad) >= max(2, upper - 1)):
        return False
    # one side holds what a mask leaves there (-∞, a large negative fill, or 0 after the softmax); a matrix whose
    # upper triangle holds other finite values (a row written as a column: a transposed dK) is not masked
    cells = ~hit.ok
    with np.errstate(invalid="ignore"):
        printed, exact = o.val[cells], hit.exact[cells]
        return bool(np.all(_masked_value(printed)) or np.all(_masked_value(exact)))


def _masked_value(v: np.ndarray) -> np.ndarray:
    return np.isneginf(v) | (v == 0) | (v <= -1e4)


def _factors_product(factors) -> np.ndarray | None:
    """The product of two printed matrices, as printed (None when a cell is missing or the shapes do not chain)."""
    vals = []
    for f in factors:
        if any(r is None or any(n is None for n in r) for r in f.rows) or len({len(r) for r in f.rows}) != 1:
            return None
        vals.append(np.array([[n.value for n in r] for r in f.rows], dtype=float))
    if len(vals) != 2 or vals[0].shape[1] != vals[1].shape[0]:
        return None
    return vals[0] @ vals[1]


def _max_difference(o: Obj, hit: Hit) -> float | None:
    if hit.exact is None or o.val is None or hit.exact.shape != o.val.shape:
        return None
    with np.errstate(invalid="ignore"):
        d = np.abs(np.where(np.isfinite(hit.exact) & np.isfinite(o.val), hit.exact - o.val, np.inf))
    return float(d.max()) if np.isfinite(d).any() else None


def _nth(o: Obj, i: int, j: int) -> Num | None:
    try:
        return o.a.rows[i][j]
    except (IndexError, TypeError):
        return None


def _view_index(h: Hit, i: int, j: int) -> tuple[int, int]:
    if h.how == "T":
        return j, i
    if h.how == "row":
        return h.index, (j if h.ok.shape[0] == 1 else i)
    if h.how == "col":
        return (j if h.ok.shape[0] == 1 else i), h.index
    return i, j


def _decimals_agree(o: Obj, hit: Hit) -> bool:
    """One agreeing cell printed to two decimals or more (`-1.0000`), or two agreeing cells that are neither 0 nor ±1
    (`-6`, `-7`): computed values, not the bare 0s and 1s every small matrix holds."""
    ok = np.asarray(hit.ok, dtype=bool).ravel()
    agree = [n for k, n in zip(ok, o.a.numbers) if k and n is not None]
    return any((n.decimals or 0) >= 2 for n in agree) or sum(abs(n.value) not in (0.0, 1.0) for n in agree) >= 2
