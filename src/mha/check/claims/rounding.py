"""Values that follow from the rounded values printed before them: a step recomputed from the document's own
printed predecessor (A printed to 4 decimals, then O from that A), a declared approximation, or a double
rounding.  Such a value gets a note, not a finding."""

from __future__ import annotations

import math
import re
import warnings
from typing import Any

import numpy as np

from ..infer import Hit, _family, alignments
from ..model import View
from ..numbers import Num
from .. import numbers as nb
from ..objects import ExprPart, Place
from .identity import identifies

_PROJECTIONS = {"Q", "Qh", "K", "Kh", "V", "Vh"}


class Rounding:
    """Judge methods: the document's printed values of each view, and what they give for the next step."""

    def collect_printed(self, plans: dict[int, Any]) -> None:
        """The document's own printed values of each view, for recomputing a step from them.

        Every view an object matches in full gets its values (V^(1) printed as X when W_V = I); an
        object with wrong cells gives its values to the view it was attributed to.
        """
        self.printed_at: dict[tuple, list[tuple[int, np.ndarray]]] = {}
        paired = getattr(self, "paired_ys", set())
        for o in self.objs:
            plan = plans.get(o.a.id)
            # (`softmax([0, 0.7071]) = [0.3302, 0.6698]` is judged on its own line, yet those are the weights the
            # author goes on with: where they match a row of the configuration, its printed values)
            if (plan is None and o.a.id not in paired) or o.val is None:
                continue
            every = alignments(o, self.vs) if self.vs is not None else []
            hits = [h for h in every if h.all]
            if plan is None and not hits:
                # weights judged beside their scores with one entry off (`A ≈ [.., 0.504]` for 0.50349, a row
                # forced to sum to 1): the quantity the rest identifies, and the values the author went on with
                whole = [h for h in every if h.how == "full" and identifies(o, h)]
                hits = whole[:1] if len(whole) == 1 else []
            if plan is not None and plan["kind"] == "wrong" and plan["hit"] is not None and \
                    (plan["hit"].how == "full" or identifies(o, plan["hit"])):
                # the whole quantity as printed, right or wrong (the author's own weights, whose outputs follow from
                # them); not a row or column placed by a guess among cells that mostly disagree (a later example's)
                hits.append(plan["hit"])
                hits.extend(self._named_alike(o, plan["hit"]))
            for h in hits:
                if h.how == "stack" or h.view is None:
                    continue
                v = h.view
                grid = np.full(v.M.shape, np.nan)
                vals = o.val
                if h.how == "full":
                    grid[:] = vals
                elif h.how == "T":
                    grid[:] = vals.T
                elif h.how == "row":
                    grid[h.index] = vals.reshape(-1)
                elif h.how == "col":
                    grid[:, h.index] = vals.reshape(-1)
                key = (v.node, v.b or 0, v.h, v.variant)
                self.printed_at.setdefault(key, []).append((o.a.place.order, grid))

    def _named_alike(self, o, hit: Hit) -> list[Hit]:
        """`Q = K = V = X W = [...]` printed wrong: the author's values stand for each quantity the chain names
        (the scores after it are worked from them as K as well as Q), in the view of the same head and shape."""
        if hit.view is None or hit.how != "full" or self.vs is None:
            return []
        v = hit.view
        # each quantity the chain names, and the head views of a projection (Q^(1) of one head is Q); not another
        # step of the same name (O, O_concat and Y for "output": Y is worked from O, not equal to it)
        nodes = {n for r in o.refs if r.strong for n in _family(r)
                 if v.node not in _family(r) or n in _PROJECTIONS} - {v.node}
        return [Hit(w, "full", None, np.ones(w.M.shape, dtype=bool), w.M) for w in self.vs.views
                if w.node in nodes and w.M.shape == o.val.shape and (w.h == v.h or v.h is None or w.h is None)
                and (w.b or 0) == (v.b or 0)]

    def printed_grid(self, key: tuple, before: tuple | None, strict: bool = False,
                     first: bool = False) -> np.ndarray | None:
        """The printed values of a view, the latest printed before `before` winning (strict: only those; first:
        the earliest printed winning instead)."""
        entries = self.printed_at.get(key)
        if not entries:
            return None
        use = [g for at, g in entries if before is None or at < before] or ([] if strict else [g for _, g in entries])
        if not use:
            return None
        out = np.full(use[0].shape, np.nan)
        for g in (reversed(use) if first else use):
            out = np.where(np.isnan(g), out, g)
        return out

    def from_printed(self, v: View, before: tuple | None = None, first: bool = False,
                     mend: bool = False) -> np.ndarray | None:
        """A step recomputed from the printed (rounded) values of the step before it (first: from their earliest
        printing, where a later copy differs; mend: with a slipped entry among them put back, see `_mended`)."""
        t, c = self.t, self.t.config
        b, h = v.b or 0, v.h

        def P(node: str, hh: int | None = None, variant: str = "", strict: bool = False) -> np.ndarray | None:
            g = self.printed_grid((node, b, hh, variant), before, strict=strict, first=first)
            return self._mended(g, node, b, hh, variant) if mend and g is not None else g
        with np.errstate(all="ignore"):
            def head_out(k: int) -> np.ndarray | None:
                # V given (not computed) and not printed again: the given values, exact as written
                given = t.Vh[b, t.group(k)] if c.given_qkv and c.cache_K is None else None
                return _head_output(P, k, c.cache_K is not None, given)
            if v.node == "O" and h is not None:
                return head_out(h)
            if v.node == "A" and h is not None:
                S = P("S", h)
                if S is not None and S.shape == t.S[b, h].shape:
                    # scores printed before their mask: the configuration's mask still hides what it hides
                    S = S + np.where(t.S[b, h] > -np.inf, 0, -np.inf)
                if S is None and P("QKt", h) is not None:
                    S = P("QKt", h) * c.effective_scale + np.where(t.S[b, h] > -np.inf, 0, -np.inf)
                if S is not None:
                    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
                        warnings.simplefilter("ignore", RuntimeWarning)    # a row of printed NaN / all masked
                        e = np.exp(S - _row_max(S))
                        return e / e.sum(axis=-1, keepdims=True)
            if v.node == "S" and h is not None:
                QK = P("QKt", h)
                if QK is not None:
                    return QK * c.effective_scale + np.where(t.S[b, h] > -np.inf, 0, -np.inf)
            if v.node == "QKt" and h is not None:
                Qp = P("Qr" if t.Qh_rope is not None else "Qh", h)
                Kp = P("Kr" if t.Kh_rope is not None or c.cache_K is not None else "Kh", h)
                if Qp is not None and Kp is not None and Qp.shape[1] == Kp.shape[1]:
                    return Qp @ Kp.T
            if v.node == "O_concat":
                # each head's printed output, and where a row of it is not printed (or not read as that head's),
                # the row worked from the head's printed weights and values
                parts = [_filled(P("O", k), head_out(k)) for k in range(c.n_heads)]
                if all(p is not None for p in parts):
                    return np.concatenate(parts, axis=1)
            if v.node == "Y":
                # the heads side by side, each from its printed weights and values (y_3 worked from the rounded
                # weights), else a head's printed output unless that is the output itself (one head, no W_O)
                Oc = self.printed_grid(("O_concat", b, None, ""), before, strict=True, first=first) \
                    if c.W_O is not None else None
                if Oc is None:
                    parts = [head_out(k) for k in range(c.n_heads)]
                    parts = [p if p is not None or (c.n_heads == 1 and c.W_O is None) else P("O", k)
                             for k, p in enumerate(parts)]
                    Oc = np.concatenate(parts, axis=1) if all(p is not None for p in parts) else None
                if Oc is not None:
                    return Oc if c.W_O is None else Oc @ c.W_O + (0 if c.b_O is None else c.b_O)
            if v.node == "row_sum" and h is not None:
                E = P("E", h, v.variant)
                S = P("S", h) if E is None else None
                if S is not None:       # the exponentials of the printed (rounded) scores, each left unprinted
                    E = np.exp(S) if v.variant else np.exp(S - _row_max(S))
                if E is not None:
                    return E.sum(axis=-1)[None, :]
            if v.node == "E" and h is not None:
                S = P("S", h)
                if S is not None:
                    return np.exp(S) if v.variant else np.exp(S - _row_max(S))
        return None

    def _mended(self, g: np.ndarray, node: str, b: int, h: int | None, variant: str) -> np.ndarray | None:
        """Printed values with their one slipped entry (one in a row at most, a third of the grid at most) replaced by
        the configuration's value rounded as its row is printed: the rounded values the author worked on (0.769
        from the scores 2.83, 0, 1.41, when the page then prints 1.51 for the last).  None when nothing slipped."""
        M = next((w.M for w in self.vs.get(node, b, h, variant=variant) if w.M.shape == g.shape), None) \
            if self.vs is not None else None
        if M is None or g.ndim != 2:
            return None
        out, n_off = g.copy(), 0
        for i in range(g.shape[0]):
            live = np.isfinite(g[i]) & np.isfinite(M[i])
            if not live.any():
                continue
            d = max(_decimals_of(float(x)) for x in g[i][live])
            off = live & (np.abs(g[i] - M[i]) > 0.5 * 10.0 ** -d * (1 + 1e-6) + 1e-12)
            if off.sum() > 1:
                return None
            out[i][off] = np.round(M[i][off], d)
            n_off += int(off.sum())
        return out if 0 < n_off <= g.size / 3 else None

    def _output_from_printed_scores(self, v: View, before: tuple) -> np.ndarray | None:
        """A head's output (one head's, or the output of one head without W_O) worked from the softmax of its printed
        scores, at full precision, and its values."""
        t, c = self.t, self.t.config
        h = v.h if v.node == "O" else (0 if c.n_heads == 1 and c.W_O is None and v.node in ("Y", "O_concat")
                                       else None)
        if h is None or v.node not in ("O", "Y", "O_concat"):
            return None
        b = v.b or 0
        A = self.from_printed(View("A", b, h, t.A[b, h]), before)
        if A is None or np.isnan(A).any():
            return None

        def P(node: str, hh: int | None = None, variant: str = "", strict: bool = False) -> np.ndarray | None:
            return A if node == "A" else self.printed_grid((node, b, hh, variant), before, strict=strict)
        # the values as printed where they are, else the configuration's (the output is worked from them either way)
        return _head_output(P, h, c.cache_K is not None, None if c.cache_K is not None else t.Vh[b, t.group(h)])

    def rounded_predecessor(self, hit: Hit, i: int, j: int, num: Num, place: Place | None = None,
                            approx: bool = False, slack: float = 0.0) -> str | None:
        if hit.view is None or hit.how == "stack":
            return None
        exact = float(hit.view.M[i, j])
        declared = approx and math.isfinite(exact) and num.decimals is not None and \
            abs(num.value - exact) <= 2 * num.half + 1e-12
        alt = self.from_printed(hit.view, place.order if place is not None else None)
        via_scores = via_mended = False
        if place is not None and (alt is None or not (0 <= i < alt.shape[0] and 0 <= j < alt.shape[1])
                                  or math.isnan(float(alt[i, j])) or not num.contains(float(alt[i, j]))):
            # the weights of that row printed one by one before it: the row recomputed from them
            one = self.from_scalar_weights(hit.view, i, place)
            if one is not None and 0 <= j < one.shape[1] and num.contains(float(one[i, j])):
                alt = one
            else:
                # a later copy of the predecessors differs (a slip in the copy): the value worked from the first
                early = self.from_printed(hit.view, place.order, first=True)
                if early is not None and 0 <= i < early.shape[0] and 0 <= j < early.shape[1] and \
                        not math.isnan(float(early[i, j])) and num.contains(float(early[i, j])):
                    alt = early
                else:
                    # the output worked from the weights the rounded scores give, unrounded (2.034 / 5.068 carried
                    # on, not the 0.401 printed from it)
                    deeper = self._output_from_printed_scores(hit.view, place.order)
                    mended = self.from_printed(hit.view, place.order, mend=True)
                    if deeper is not None and 0 <= i < deeper.shape[0] and 0 <= j < deeper.shape[1] and \
                            not math.isnan(float(deeper[i, j])) and num.contains(float(deeper[i, j])):
                        alt, via_scores = deeper, True
                    elif mended is not None and 0 <= i < mended.shape[0] and 0 <= j < mended.shape[1] and \
                            not math.isnan(float(mended[i, j])) and num.contains(float(mended[i, j])):
                        alt, via_mended = mended, True
        if place is not None and hit.view.node == "A" and not num.contains(exact) and \
                (alt is None or not (0 <= i < alt.shape[0] and 0 <= j < alt.shape[1]) or
                 math.isnan(float(alt[i, j])) or not num.contains(float(alt[i, j]))):
            x = self.printed_quotient(place, num, exact)
            if x is not None:
                return (f"follows from the rounded exponentials and their sum printed before it (they give {x:.6g}); "
                        f"the exact {exact:.6g} rounds to {num.rounded(exact)}")
        if alt is None or not (0 <= i < alt.shape[0] and 0 <= j < alt.shape[1]) or math.isnan(float(alt[i, j])):
            if declared:
                return f"within the approximation the document declares (exact {exact:.6g})"
            return _scaled_from_rounded_of(self, hit.view, num, exact)
        if slack and abs(float(alt[i, j]) - exact) <= 2 * num.half:
            return None      # (the room is for values the predecessors set apart from the configuration's, not for
            #                  one a unit off a value both give)
        if not num.contains(float(alt[i, j]), slack=slack):
            # the printed predecessors rounded once more on the way (e^-0.37 = 0.69, then 0.69 / 2.94 = 0.23)
            twice = _double_rounding(num, float(alt[i, j]))
            if twice is not None and not num.contains(exact):
                return f"follows from the rounded values printed before it (they give {float(alt[i, j]):.6g}); " + twice
            return f"within the approximation the document declares (exact {exact:.6g})" if declared else None
        x = float(alt[i, j])
        exact = float(hit.view.M[i, j])
        if math.isfinite(exact) and abs(x - exact) > max(0.1 * abs(exact), 0.05, 10 * num.half) and \
                _mostly_far(alt, hit.view.M):
            return None      # far everywhere: those printed values are another example's, not its roundings
        pre = {"O": "A and V", "A": "scores", "S": "Q Kᵀ", "QKt": "Q and K", "O_concat": "head outputs",
               "Y": "O_concat" if self.t.config.W_O is not None else "A and V", "row_sum": "exponentials",
               "E": "scores"}.get(hit.view.node, "values")
        if via_scores:
            pre = "scores (the weights they give, unrounded) and V"
        if via_mended:
            pre += " (the slipped one as it should read)"
        if abs(x - exact) > 10 * num.half and _weights_elsewhere_of(self, hit.view, place):
            # the weights it is worked from are not the configuration's (another step's, unmasked): it holds with
            # them, and the configuration's value is no rounding of it
            return (f"follows from the rounded {pre} printed before it (they give {x:.6g}); those weights are not the "
                    f"inferred configuration's, which gives {exact:.6g}")
        return (f"follows from the rounded {pre} printed before it (they give {x:.6g}); "
                f"the exact {exact:.6g} rounds to {num.rounded(exact)}")


def _scaled_from_rounded_of(j, v: View, num: Num, exact: float) -> str | None:
    """A scaled score printed to d decimals that is off the exact one by no more than its own rounding and the scale
    times a rounding at the same decimals: the scores before the scale, rounded so for print (`0.032` in a table
    the readers could not take apart), then divided (0.032 / 1.414 = 0.0226, printed 0.023 for the exact 0.0223).
    Worked from rounded values, as a rounding note; a slip of two units or more is still a slip."""
    if v.node != "S" or num.decimals is None or num.decimals < 2 or not math.isfinite(exact):
        return None
    c = abs(j.t.config.effective_scale)
    if not 0 < c < 1 or abs(num.value - exact) > num.half * (1 + c) * (1 + 1e-9):
        return None
    return (f"follows from the scores before the scale rounded to {num.decimals} decimals and then scaled "
            f"(×{c:.4g}); the exact {exact:.6g} rounds to {num.rounded(exact)}")


def _weights_elsewhere_of(j, v: View, place: Place | None) -> bool:
    """Are the printed weights an output is recomputed from mostly not roundings of the configuration's (weights
    printed by an unmasked, unscaled step earlier in a notebook that goes on with a causal one, or a second
    example's under the same names)?  Then the value that agrees with them still follows from them, but the note
    says so without calling the configuration's value the exact one it rounds."""
    if v.node not in ("O", "Y", "O_concat") or v.h is None:
        return False
    b = v.b or 0
    A = j.printed_grid(("A", b, v.h, ""), place.order if place is not None else None)
    if A is None or A.shape != j.t.A[b, v.h].shape:
        return False
    with np.errstate(invalid="ignore"):
        near = np.abs(A - j.t.A[b, v.h]) <= 5e-3 * np.maximum(np.abs(j.t.A[b, v.h]), 0.1)
    live = np.isfinite(A)
    # (mostly far from them, or near none of them: not roundings, nor a slip among roundings)
    return _mostly_far(A, j.t.A[b, v.h]) or (live.sum() >= 2 and not (near & live).any())


class ScalarWeights:
    """An output row worked from weights the document prints one by one ("2.100 / 6.049 = 0.347", "= 0.400"), not
    as an array: the output recomputed from those rounded weights (a mixin of Judge, beside Rounding)."""

    def from_scalar_weights(self, v: View, i: int, place: Place) -> np.ndarray | None:
        """The view's grid with row i recomputed from printed scalars that round the exact weights of that row;
        None unless every weight of the row is printed (to two or more decimals) before `place`."""
        t, c = self.t, self.t.config
        if v.node not in ("O", "Y") or (v.node == "Y" and (c.n_heads != 1 or c.W_O is not None)):
            return None
        b, h = v.b or 0, (v.h if v.h is not None else 0)
        try:
            w_exact = t.A[b, h][i]
            Vh = t.Vh[b, t.group(h)]
        except (AttributeError, IndexError, TypeError):
            return None
        printed = self._printed_results(place)
        w = []
        for x in w_exact:
            got = next((n for n in printed if n.decimals is not None and n.decimals >= 2 and n.contains(float(x))),
                       None)
            # or a unit off: a weight worked from rounded values (1.77 / 4.05 ≈ 0.44 for the exact 0.4348); a slip
            # in that working is found on its own line
            got = got or next((n for n in printed if n.decimals is not None and n.decimals >= 2 and
                               n.contains(float(x), 2 * n.half)), None)
            if got is None:
                return None
            w.append(got.value)
        grid = np.full(v.M.shape, np.nan)
        if i < grid.shape[0] and Vh.shape[0] == len(w) and Vh.shape[1] == grid.shape[1]:
            grid[i] = np.array(w) @ Vh
            return grid
        return None

    def printed_quotient(self, place: Place, num: Num, exact: float) -> float | None:
        """A weight (a bare result `α_10 ≈ 0.3303`, or a cell of the matrix that restates it) under its exponential
        and their total printed a few lines before it (`e^{-0.7071} ≈ 0.4931`, `Σ ≈ 1.4931`): the quotient of two of
        those printed numbers that gives it, when that quotient is also within two units of the exact weight (a unit
        off from the rounding on the way, not another number); None otherwise.  (claims/expshares.py does the same
        for exponentials and weights each written as one row on a line.)"""
        if place.cell is not None:
            return None
        near = [n for n in self._printed_results(place) if (n.line or 0) >= place.line - 12][:12]
        for total in near:
            if total.decimals is None or total.decimals < 2 or total.value <= 0:
                continue
            for e in near:
                if e is total or not 0 < e.value < total.value:
                    continue
                q = e.value / total.value
                if num.contains(q) and abs(q - exact) <= 4 * num.half:
                    return q
        return None

    def _printed_results(self, place: Place) -> list[Num]:
        """The numbers that end the arithmetic chains before `place`, latest first."""
        if not hasattr(self, "_chain_results"):
            found = []
            for ch in self.doc.chains:
                n = nb.plain_number(ch.parts[-1].expr) if len(ch.parts) >= 2 and isinstance(ch.parts[-1], ExprPart) \
                    else None
                if n is not None:
                    found.append(((ch.place.cell or 0, ch.place.line), n))
            self._chain_results = sorted(found, key=lambda x: x[0], reverse=True)
        return [n for at, n in self._chain_results if at < place.order]


def _decimals_of(x: float) -> int:
    """The fewest decimals that write x (2 for 2.83, 0 for 0), up to 8."""
    return next((d for d in range(9) if abs(x * 10 ** d - round(x * 10 ** d)) < 1e-6 * max(1.0, abs(x) * 10 ** d)), 8)


def _filled(printed: np.ndarray | None, worked: np.ndarray | None) -> np.ndarray | None:
    if printed is None or worked is None or printed.shape != worked.shape:
        return worked if printed is None else printed
    return np.where(np.isnan(printed), worked, printed)


def _head_output(P, h: int, cached: bool, given: np.ndarray | None = None) -> np.ndarray | None:
    """A head's output recomputed from its printed weights and values (a decoding step mixes the values of the
    cache and the new tokens, V_all); `given`: the values when the document gives V and does not print it again."""
    # given values stand unless printed again before this point (a later example's V is no copy of them)
    A, Vh = P("A", h), P("Vr" if cached else "Vh", h, strict=given is not None)
    if Vh is None:
        Vh = given
    elif given is not None and Vh.shape == given.shape:
        Vh = np.where(np.isnan(Vh), given, Vh)      # V given, and some of its rows quoted again: the rest as given
    if A is not None and Vh is not None and A.shape[1] == Vh.shape[0]:
        return A @ Vh
    return None


def _double_rounding(num: Num, x: float) -> str | None:
    """0.373515 shown by pandas as .round(4) at display.precision 3: 0.3735, then 0.373, one unit below the
    0.374 of a single rounding.  The printed value is the rounding of a coarser rounding of the exact value
    (to one or two more decimals), so it is a note; any other value is still a slip."""
    if num.decimals is None or num.decimals < 1 or "e" in num.text.lower() or not math.isfinite(x) \
            or abs(num.value - x) > 2 * num.half + 1e-12:
        return None
    k = num.decimals
    for extra in (1, 2):
        m = round(x, k + extra)
        # as a program shows it: the float of the first rounding formatted at the printed decimals (0.3735 is
        # stored just below the half and shows as 0.373; 0.8455 is stored just above and shows as 0.846)
        if num.contains(m) and abs(float(f"{m:.{k}f}") - num.value) <= num.half / 10:
            return (f"double rounding: the exact {x:.6g} rounded first to {k + extra} decimals ({m:.{k + extra}f}) "
                    f"gives {num.text}; rounded once it gives {num.rounded(x)}")
    return None


def _mostly_far(alt: np.ndarray, exact: np.ndarray) -> bool:
    """Do the values recomputed from the printed predecessors miss the exact ones in most cells (another example's
    predecessors), rather than in the few a slip upstream carries into (one slip, one finding: those stay notes)?"""
    if np.shape(alt) != np.shape(exact):
        return False
    with np.errstate(invalid="ignore"):
        far = np.abs(alt - exact) > np.maximum(0.1 * np.abs(exact), 0.05)
    live = np.isfinite(alt) & np.isfinite(exact)
    return bool(live.sum()) and far[live].mean() > 0.5



def share_like(j, o, hit: Hit) -> float:
    """The share of an object's printed cells that agree with the view it is matched with, counting as agreeing a
    cell that is what the printed (rounded) step before it gives: an output worked from weights rounded to three
    decimals carries their rounding in a few cells, and is no less the example's for that."""
    ok = np.asarray(hit.ok, dtype=bool)
    if ok.all() or hit.how != "full" or hit.view is None or o.lo is None or getattr(j, "t", None) is None:
        return float(ok.mean())
    try:
        alt = j.from_printed(hit.view, o.a.place.order)
    except (ValueError, IndexError, TypeError):
        return float(ok.mean())
    if alt is None or alt.shape != ok.shape:
        return float(ok.mean())
    with np.errstate(invalid="ignore"):
        near = (o.lo - 1e-12 <= alt) & (alt <= o.hi + 1e-12)
    return float((ok | near).mean())


def rounded_addends(left) -> bool:
    """A sum whose addends are all printed to three decimals or more: such numbers are nearly always results
    rounded for print (exponentials, products), and the author adds the unrounded ones.  Short addends (0.30,
    0.06) are as often exact, and their sum is judged as written."""
    terms = nb.terms_of(left)
    if len(terms) < 2:
        return False
    nums = [nb.plain_number(t) for t in terms]
    if any(x is None for x in nums):
        return False
    nums = [x for x in nums if x.value != 0]     # 0.141 + 0 + 0 + (-0.283): a zero addend is exact
    # (a whole addend is exact too: 2 + 2.333333 + 1.333333 + 1 adds two thirds rounded to two whole numbers)
    nums = [x for x in nums if not (x.decimals in (None, 0) and x.value == int(x.value))]
    # (and a short constant among them is exact: 0.2701 - 0.0538 - 0.0892 - 0.1444 + 0.05, the bias added last)
    long = [x for x in nums if (x.decimals or 0) >= 3]
    return len(long) >= 2 and len(long) > 2 * (len(nums) - len(long))


def products_of_rounded(left) -> bool:
    """A dot product written out of factors printed to three decimals or more (0*0 + 1.414*1.414 + ...): they are
    roundings (1.414 for √2), and the author multiplies the unrounded ones (√2·√2 = 2)."""
    terms = nb.terms_of(left)
    if len(terms) < 2:
        return False
    rounded = False
    for t in terms:
        n = nb.plain_number(t)
        if n is not None and n.value == 0:
            continue
        fs = nb.factors_of(t)
        if len(fs) < 2:
            return False
        for f in fs:
            x = nb.plain_number(f)
            if x is not None and (x.decimals or 0) >= 3:
                rounded = True
    return rounded


def amplified_products(left, n) -> bool:
    """A sum of products in which a factor printed to two decimals or more is multiplied by more than its rounding
    can bear at the result's precision (`0.41 · 4`: 0.41 is 1/√6 rounded, ±0.005 · 4 = ±0.02, four of the
    result's half units): on a line the author marks approximate, the result is the unrounded factors' product."""
    if n.decimals is None:
        return False
    for t in nb.terms_of(left):
        fs = nb.factors_of(t)
        if len(fs) < 2:
            continue
        for k, f in enumerate(fs):
            x = nb.plain_number(f)
            if x is None or (x.decimals or 0) < 2 or x.value == 0:
                continue
            others = 1.0
            for j, g in enumerate(fs):
                if j != k:
                    try:
                        others *= abs(nb.face(g))
                    except (ArithmeticError, OverflowError, ValueError):
                        return False
            if x.half * others > 1.5 * n.half:
                return True
    return False


_WRITTEN_EXP = re.compile(r"^\s*\[?\s*((?:e\^\{?-?\d+(?:\.\d+)?\}?\s*,\s*)+e\^\{?-?\d+(?:\.\d+)?\}?)\s*\]?\s*$")


def written_exponent(label: str, j: int, n: int, num) -> float | None:
    """`[e^0.707, e^0.0, e^0.354] ≈ [2.028, 1.000, 1.425]`: the exponentials of the rounded arguments written beside
    them; entry j's e^x at x as written when the printed number holds it (else None)."""
    m = _WRITTEN_EXP.match(label or "")
    if m is None:
        return None
    xs = re.findall(r"e\^\{?(-?\d+(?:\.\d+)?)", m.group(1))
    if len(xs) != n or j >= n:
        return None
    got = math.exp(float(xs[j]))
    return got if num.contains(got) else None


def _row_max(S: np.ndarray) -> np.ndarray:
    """Each row's largest printed score (NaN for a row with none printed, without NumPy's warning about it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmax(S, axis=-1, keepdims=True)
