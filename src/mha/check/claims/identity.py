"""Identity before verdict: what entitles the checker to call a printed number wrong.

A number is wrong only when the object it sits in has been identified by evidence that does not depend on that
number.  For an array the evidence is its other cells: at least two of them, and at least two thirds, match the
intermediate it was attributed to.  An object that mostly disagrees has been misidentified (another scale, another
example, weights the document never prints): it is reported once as "not checked", with the reading that comes
nearest, and never as one finding per cell.
"""

from __future__ import annotations

import bisect
import math
import re

import numpy as np

from ..infer import Hit, Obj, _family, alignments
from ..report import Finding, NotChecked
from .common import _show_view

AGREE = 2 / 3          # the share of an object's other cells that must match before one of its cells is wrong
AGREE_MIN = 2          # ... and at least this many


def identified(n_ok: int, n: int) -> bool:
    """Do the other cells of an object with n cells, n_ok of them right, identify it?

    Each wrong cell is judged by the n - 1 cells beside it, of which n_ok match.

    >>> identified(8, 9), identified(5, 9), identified(2, 3), identified(1, 2)
    (True, False, True, False)
    """
    if n_ok >= n:
        return True
    return n_ok >= AGREE_MIN and n_ok >= AGREE * (n - 1) - 1e-9


WEAK = 1 / 3           # what a match of a 0, ±1 or small integer, or of a value met before in the object, is worth
SMALL_INT = 10         # integers below this in size are common to many objects: a match of one says little


def evidence(printed: np.ndarray, agree: np.ndarray) -> float:
    """The weight of an object's agreeing cells as evidence of what it is.  A match of 0.7517 would be a
    coincidence of one in thousands; a match of a 0, a ±1 or another small integer (a 0/1 vector against a row of
    a 0/1 weight), or of a value the object already showed, is a coincidence of one in a few: such a match is
    worth WEAK of an informative one.

    >>> evidence(np.array([1., 0., 1., 0.]), np.array([True, True, True, False]))
    1.0
    >>> evidence(np.array([0.7517, 0.2483, 0.5]), np.array([True, True, False]))
    2.0
    """
    return round(sum(_weights(printed, agree)), 9)


def _weights(printed: np.ndarray, agree: np.ndarray) -> list[float]:
    seen: set[float] = set()
    out = []
    for v, ok in zip(np.asarray(printed, dtype=float).ravel(), np.asarray(agree, dtype=bool).ravel()):
        if not ok or not math.isfinite(v):
            continue
        # (a value next to nothing, -2.3e-13 in `torch.empty`'s garbage, is a zero as evidence)
        weak = v in seen or (v == round(v) and abs(v) < SMALL_INT) or abs(v) < 1e-9
        seen.add(v)
        out.append(WEAK if weak else 1.0)
    return out


def named_as(o: Obj, hit: Hit) -> bool:
    """Named by a symbol as the quantity it was matched with (A = [...], not an unlabelled row, a word or F(x))."""
    return hit.view is not None and any(r.strong and hit.view.node in _family(r) for r in (o.refs or []))


def identifies(o: Obj, hit: Hit, agree: np.ndarray | None = None, skip: np.ndarray | None = None) -> bool:
    """`identified` for an object and the view it was attributed to, weighing what agrees: its other cells must
    reach the counts (two thirds, and at least two) and, unless its own name says it is that quantity (`q1·k =
    [4, 2, 5]` named as scores: the name is evidence that does not come from the values), hold one informative
    match or AGREE_MIN of `evidence` (three matches of a 0 or a 1 are worth one of 0.7517).  agree: the cells that agree (hit.ok unless
    told); skip: cells that are no evidence either way (masked cells that agree only because the mask put them
    there)."""
    ok = np.asarray(hit.ok if agree is None else agree, dtype=bool)
    n = o.val.size
    if hit.view is not None and hit.view.node == "E" and not hit.view.variant and not named_as(o, hit):
        # the exponentials after the row max is taken off hold a 1 at each row's largest score, whatever the scores:
        # a printed 1 there is no evidence of which matrix this is ([[1, 0.5], [0.5, 1]], a projection)
        ones = np.asarray(hit.exact, dtype=float) == 1.0
        if ones.shape == ok.shape:
            skip = ones if skip is None else (np.asarray(skip, dtype=bool) | ones)
    if skip is not None:
        n -= int(np.sum(skip))
        ok = ok & ~np.asarray(skip, dtype=bool)
    if not named_as(o, hit) and o.val.size >= 2 and np.all(np.abs(np.asarray(o.val, dtype=float)) < 1e-9):
        return False         # zeros, or torch.empty's memory (values next to nothing): evidence of no matrix
    n_ok = int(ok.sum())
    if n_ok >= n:
        return True
    if not identified(n_ok, n) or not _identified_off_zero(hit, ok, skip):
        return False
    named = named_as(o, hit)
    vals = np.asarray(o.val, dtype=float)
    if named and hit.view.node in ("O_concat", "Y") and (o.a.label or "").strip(" $*_") in ("Y", "y") and \
            np.isfinite(vals).all() and np.all((vals == np.round(vals)) & (np.abs(vals) < SMALL_INT)):
        # `Y = [1, 2, 0, 1]`: the letter of the output is as often a decoder's input or a target sequence; of small
        # whole numbers only, the letter alone identifies nothing, the values must
        named = False
    if not named and vals.size >= 2 and np.all(vals == vals.flat[0]):
        return False         # torch.ones(3, 3) printed: one value everywhere says nothing of which matrix it is
    weights = _weights(o.val, ok)
    if named and o.a.label == "softmax input" and hit.how == "row" and o.ref is not None and o.ref.row is None and \
            o.row_hint != hit.index and 1.0 not in weights:
        # `A_{0,:} = softmax([0.5, 0, 1.0])` against the row [2, 0, 1] of Q Kᵀ: a softmax's argument is some row of
        # scores, which one its values must say (not the row the line names), and a 0 and a 1 agreeing say nothing
        named = False
    if named and o.a.style == "code" and 1.0 not in weights:
        # `logits = np.array([4.0, 2.0, 1.0])` typed into a program: an input the author chose, which its name
        # ties to the example only through values that agree (a 2 and a 1 agree with many rows by chance)
        named = False
    if hit.how == "col" and o.val.shape[0] == 1 and not named and sum(w == 1.0 for w in weights) < 2:
        # a row printed across the line, held against a column of some view, one informative entry agreeing
        # (`[0.707, 0, -0.707]` of an exercise's new query against S's first column [0.707, 0, 0.707]): a
        # row of scores or weights is one query's, and one shared 1/√2 is no identity
        return False
    # one informative match with the counts met is a coincidence of one in thousands; chance-prone matches alone
    # must add up to AGREE_MIN (six of them: 1 in 64 for a 0/1 object)
    return named or 1.0 in weights or sum(weights) >= AGREE_MIN - 1e-9


def _identified_off_zero(hit: Hit, ok: np.ndarray, skip: np.ndarray | None) -> bool:
    """Two cells at least whose exact value is not 0 must agree, where three or more are not 0: padding, a causal
    mask or a one-hot row put zeros in many objects, and zeros agreeing say little of which one this is.  Token ids
    padded with zeros, the decoder's input and its target shifted by one (`[8178, 3844, 74, 0, ...]` beside
    `[3844, 74, 0, ...]`), agree in every padded cell and in no other: no identity, whatever the share of zeros."""
    exact = np.asarray(hit.exact, dtype=float)
    if exact.shape != ok.shape:
        return True
    live = exact != 0
    if skip is not None:
        live &= ~np.asarray(skip, dtype=bool)
    return int(live.sum()) < 3 or int((ok & live).sum()) >= AGREE_MIN


def _bare_name_of_a_column(o: Obj, hit: Hit) -> bool:
    """`s = [1, 2]` matched to a column of S: a name with no index names the whole quantity, not one of its columns
    (the pair is another example's vector that happens to share an entry)."""
    return hit.how in ("col", "T") and o.ref is not None and o.ref.col is None and o.ref.raw_col is None


def _exp_of_the_row_above(objs: list, o: Obj) -> bool:
    """`Row 0: [0, 2.83]`, then `exp: [1, 16.95]`: a pair named as exponentials that is the exponential of the row
    printed just above it is that row's, by its own arithmetic, whatever row of the configuration it resembles."""
    if o.ref is None or "E" not in o.ref.nodes or o.val is None or o.lo is None:
        return False
    k = next((i for i, x in enumerate(objs) if x is o), None)
    for x in objs[max(0, (k or 0) - 2):k or 0]:
        if x.val is None or x.val.shape != o.val.shape or x.a.place.cell != o.a.place.cell or \
                not 0 < o.a.line - x.a.line <= 2:
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(np.asarray(x.val, dtype=float))
            spread = e * np.asarray(x.hi - x.lo, dtype=float) / 2
        if np.all((e + spread >= o.lo - 1e-9) & (e - spread <= o.hi + 1e-9)):
            return True
    return False


# What each quantity is computed from: the alternatives, each a set of quantities that must all be established.
PREDECESSORS: dict[str, tuple[tuple[str, ...], ...]] = {
    "Q": (("X", "W_Q"),), "K": (("X", "W_K"),), "V": (("X", "W_V"),),
    "Qh": (("Q",), ("X", "W_Q")), "Kh": (("K",), ("X", "W_K")), "Vh": (("V",), ("X", "W_V")),
    "QKt": (("Q", "K"), ("Qh", "Kh")), "S": (("QKt",), ("Q", "K"), ("Qh", "Kh")), "E": (("S",),),
    "row_sum": (("E",), ("S",)), "A": (("S",), ("QKt",), ("E",)), "O": (("A", "V"), ("A", "Vh")),
    "O_concat": (("O",),), "Y": (("O_concat", "W_O"), ("O", "W_O")),
}


def _close(o: Obj, hit: Hit) -> bool:
    """Every entry printed to five decimals or more and within a hundredth of its exact value (relative, none near
    zero): a context vector printed from a slightly other run ([0.58638387, 0.41361613] for [0.58661554,
    0.41338446]) is that vector, off, not another quantity."""
    exact = np.asarray(hit.exact, dtype=float)
    if exact.shape != o.val.shape or not np.all(np.isfinite(exact)) or np.any(np.abs(exact) < 0.05):
        return False
    if any((n.decimals or 0) < 5 for n in o.a.numbers):
        return False        # a program's full-precision printout: fewer digits may be the rounding of rounded inputs
    return bool(np.all(np.abs(o.val - exact) <= 0.01 * np.abs(exact)))


class Identity:
    """Judge methods: an object that mostly disagrees, and the reading that comes nearest to it."""

    def establish(self, plans: dict) -> None:
        """The quantities the document's printed values pin down: its printed inputs (weights only when printed
        or stated, not assumed), every quantity a printed object matches, and what is computed from those."""
        out: set[str] = set()
        best = getattr(self.inf, "best", None)
        if best is not None and not self.mapping_given:
            for name, choice in best.cand.dims.items():
                if name in ("X", "Q", "K", "V") and choice.uses:
                    out.add(name)
                if name in ("W_Q", "W_K", "W_V", "W_O") and "(assumed)" not in choice.label:
                    out.add(name)
            out |= _given_by_start(best.cand.dims)
        for o in self.objs:
            plan = plans.get(o.a.id)
            hit = plan.get("hit") if plan else None
            if hit is None or hit.view is None or o.val is None or o.val.size < 2:
                continue
            if plan["kind"] == "holds" or (plan["kind"] == "wrong" and identifies(o, hit)):
                out.add(hit.view.node)
        grown = True
        while grown:
            grown = False
            for node, alts in PREDECESSORS.items():
                if node not in out and any(all(p in out for p in alt) for alt in alts):
                    out.add(node)
                    grown = True
        self.established = out

    def named_and_fed(self, o: Obj, hit: Hit) -> bool:
        """A pair or a single number (too few cells to be identified by the others): its name says which entry it
        is, and what it is computed from is printed and matches ("q_1 = [0.64, 0.26]" after X and W_Q)."""
        close = hit.view is not None and _close(o, hit)
        if o.val.size > 2 or hit.view is None or (hit.n_ok < o.val.size - 1 and not close):
            return False
        # (a token named by its word, v_banana, says which vector, not which row: no entry is named by it); a word
        # for a name ("Context Vector") names it when what it is computed from is printed beside it, or when every
        # entry is within a hundredth of that quantity
        named = o.ref is not None and (o.ref.strong or close or self._fed_beside(o, hit)) and \
            o.ref.token is None and self.ref_ok(o, hit) and not _bare_name_of_a_column(o, hit)
        # or the sentence names the row: "the first row of the output is [1.5989, -0.0056]"
        told = o.row_hint is not None and hit.how == "row" and o.ref is None
        if not (named or told) or self._siblings_unlike(o) or _exp_of_the_row_above(self.objs, o):
            return False
        alts = PREDECESSORS.get(hit.view.node, ())
        return any(all(p in getattr(self, "established", set()) for p in alt) for alt in alts)

    def projection_named(self, o: Obj, hit: Hit, agree: np.ndarray) -> bool:
        """A table named Q, K or V whose X and weight are printed, with half its cells or more agreeing, three of
        them informative (a coincidence of one in billions): it is that projection, whatever its other cells say
        (an example whose later rows were made up, not computed), so each of those is judged."""
        if hit.view is None or hit.view.node not in ("Q", "K", "V") or o.val is None or o.val.size < 4 or \
                not named_as(o, hit):
            return False
        if not all(p in getattr(self, "established", set()) for p in PREDECESSORS[hit.view.node][0]):
            return False
        ok = np.asarray(agree, dtype=bool).ravel()
        return 2 * int(ok.sum()) >= o.val.size and _weights(o.val, ok).count(1.0) >= 3

    def _fed_beside(self, o: Obj, hit: Hit) -> bool:
        """A word for a name ("The output: `[0.91, 0.85]`") names the pair as well as a symbol does when what it is
        computed from is printed on its line, or the two lines before it, and holds ("Their softmax: `[..]`")."""
        plans = getattr(self, "plans", {})
        # (the output after a single head and no W_O is that head's: the weights before it feed it)
        nodes = (hit.view.node, "O") if hit.view.node in ("Y", "O_concat") else (hit.view.node,)
        before = {p for n in nodes for alt in PREDECESSORS.get(n, ()) for p in alt}
        at = o.a.place
        vs = getattr(self, "vs", None)
        for x in self.objs:
            if x is o or x.val is None or x.a.place.cell != at.cell or not 0 <= at.line - x.a.line <= 2:
                continue
            p = plans.get(x.a.id)
            if p is not None and p["kind"] == "holds" and p.get("hit") is not None and p["hit"].view is not None:
                if p["hit"].view.node in before:
                    return True
            elif p is None and vs is not None and any(h.all and h.view is not None and h.view.node in before
                                                      for h in alignments(x, vs)):
                return True          # judged as a pair with its scores, and whole the configuration's too
        return False

    def _siblings_unlike(self, o: Obj) -> bool:
        """Objects on the same line under the same name with other indices ("h_1 = [...], h_2 = [...], h_3 = [...]")
        of which none is what that name stands for: the name is another example's (encoder states, not head
        outputs), so it identifies none of them."""
        plans = getattr(self, "plans", {})
        sibs = [x for x in self.objs if x is not o and x.ref is not None and o.ref is not None
                and x.ref.nodes == o.ref.nodes and (x.a.place.cell, x.a.place.line) == (o.a.place.cell, o.a.place.line)]
        return bool(sibs) and not any((p := plans.get(x.a.id)) is not None and p["kind"] == "holds" or
                                      (p is not None and p.get("hit") is not None and p["hit"].n_ok > 0) for x in sibs)

    def doubt(self, o: Obj, hit: Hit) -> None:
        """One line for an object that most of its cells do not identify: "not checked" with its nearest reading,
        or, when every cell is its labelled quantity under a usual mistake (the scale left out, another head's,
        transposed), one finding for the whole object."""
        label = o.ref.show() if o.ref is not None else _show_view(hit)
        near = self.nearest_reading(o, hit)
        what = f"{_name(o)} ({'×'.join(map(str, o.a.shape))}, {o.a.place})"
        if near is not None and near[2] and o.ref is not None and o.ref.strong and near[3] and \
                not (near[3][0] == "missing_scale" and (not self.in_scope(o.a.place) or _says_its_scale(o, near[3]) or
                                                        _exp_of_the_row_above(self.objs, o) or
                                                        self._each_scale_its_section(o))):
            # (the scale left out in a section of its own, an exercise that asks for the unscaled scores: not
            # this example's slip, so not one finding for the whole object; nor exponentials of the softmax argument
            # written on the line above, `softmax([0.707, 1.414])` then `exp: [2.028, 4.113]`: the other scale worked)
            node = hit.view.node
            self.n_claims += 1
            self.add(Finding(o.a.line, o.a.place.cell, label, _short(o), None, None, self.step_of(node),
                             f"every entry is {near[0]}: {near[3][1]}", near[3][0]))
            return
        seen = _show_view(hit)
        named = f" (it is named {label})" if o.ref is not None and hit.view is not None and \
            not any(hit.view.node in _family(r) for r in o.refs) else ""
        self.not_checked.append(NotChecked(
            o.a.line, o.a.place.cell, what,
            f"only {hit.n_ok} of {o.val.size} entries match {seen}{named} of the inferred configuration, so what "
            f"it stands for is not established (another example, scale or set of weights?); no entry is judged",
            near[0] if near else None, near[1] if near else None))
        self.doubted.append(o.a.id)

    def _each_scale_its_section(self, o: Obj) -> bool:
        """A page that works the example twice, once in a section of its own with the scale and once without
        (`## The same with the scale`): the object's section holds nothing of the configuration's reading that the
        scale changes (scaled scores, exponentials, weights, outputs), another section does, and the object's section
        works the other reading on beyond it (weights and outputs unscaled).  A slip leaves the scale out of one step
        among quantities it changes; a page that shows both readings keeps each whole in its place."""
        doc, av = self.doc, self.alt("scale")
        if not doc.headings or av is None:
            return False
        keys = sorted(p.order for p in doc.headings)
        section = bisect.bisect_right(keys, o.a.place.order)

        def fits(x, views, nodes=_SCALED_NODES) -> bool:
            return any(h.all and h.view is not None and h.view.node in nodes for h in alignments(x, views))
        here = elsewhere = other = False
        for x in self.objs:
            if x is o or x.val is None:
                continue
            mine = bisect.bisect_right(keys, x.a.place.order) == section
            if fits(x, self.vs):
                here, elsewhere = here or mine, elsewhere or not mine
            elif mine and fits(x, av, _SCALED_NODES - {"S"}):
                other = True        # (and the other reading worked on in the object's section: not one slipped step;
                #                     its S is the raw scores, printed under either reading)
        return elsewhere and not here and other

    def nearest_reading(self, o: Obj, hit: Hit) -> tuple[str, float, bool, tuple[str, str] | None] | None:
        """The view nearest to the object (of this configuration, or of it with the scale left out or added):
        (how it reads, the largest difference, whether every cell rounds to it, and (kind, cause) when it is the
        object's own quantity under a usual mistake)."""
        best = None
        node = hit.view.node if hit.view is not None else None
        readings = [(h, "", None) for h in alignments(o, self.vs)]
        av = self.alt("scale")
        if av is not None and node is not None:
            unscaled = self.mapping.get("scale") in (None, "1/sqrt(d_k)", "1/d_k")
            said = "without the 1/√d_k scale" if unscaled else "with the 1/√d_k scale"
            readings += [(h, " " + said, ("missing_scale", "the scale left out" if unscaled else "a scale added"))
                         for h in alignments(o, av) if h.view is not None and h.view.node == node]
        for h, how, mistake in readings:
            if h.view is None:
                continue
            own = h.view.node == node
            if mistake is None and own and h.view.h != hit.view.h and h.view.h is not None and h.how == hit.how:
                mistake = ("wrong_head", f"head {h.view.h + 1}'s values")
            elif mistake is None and own and h.how == "T" and hit.how != "T":
                mistake = ("transposed", "the transpose")
            key = (_distance(o.val, h.exact), 0 if own else 1, _show_view(h) + how)
            if best is None or key < best[0]:
                best = (key, h.all, mistake if own else None)
        if best is None or not math.isfinite(best[0][0]):
            return None
        (d, _, text), every, mistake = best
        return text, d, every, mistake

# the words that say a printout is the other reading on purpose: "Scaled Softmax:", `weights_unscaled`, "raw scores"
# (a switch printed over an output, `divide = False   hide the future = True   -> output`, says which it is too)
_OFF = r"\s*[=:]\s*(?:False|0|no|off)\b"
_SCALED_WORDS = re.compile(r"(?<!un)scal(?:ed|ing)(?!" + _OFF + r")|sqrt|√|缩放后|縮放後|"
                           r"\b(?:divide|scale)d?\s*[=:]\s*(?:True|1|yes|on)\b", re.I)
_UNSCALED_WORDS = re.compile(r"unscaled|without (?:the )?scal|no scal|skip(?:s|ping)? (?:the )?scal|\braw\b|"
                             r"未缩放|不缩放|缩放前|未縮放|不縮放|縮放前|未除以|暫略|暂略|"
                             r"\b(?:divide|scale|scaled|scaling)" + _OFF, re.I)


# the quantities a scale changes (QKt, the raw scores, is the same either way)
_SCALED_NODES = frozenset({"S", "E", "row_sum", "A", "O", "O_concat", "Y"})


def _says_its_scale(o: Obj, mistake: tuple[str, str]) -> bool:
    """Do the object's names, or the words right before it, say it is scaled (when the configuration is not) or
    unscaled (when it is)?  An exercise that adds the scale prints "Scaled Softmax:": the other reading is the
    point of it, not a slip (a scale added, or left out, is a finding only when nothing says so)."""
    return _words_say(o, mistake[1] == "a scale added", (o.a.context.before or "")[-80:])


def _words_say(o: Obj, scaled: bool, near: str) -> bool:
    """Do the object's names, the words near it, or its section's heading ("First without scaling") say scaled
    (scaled=True) or unscaled?"""
    words = " ".join([o.a.label or "", *(o.a.labels or []), near, o.a.context.heading or ""])
    return bool((_SCALED_WORDS if scaled else _UNSCALED_WORDS).search(words))


def _given_by_start(dims: dict) -> set[str]:
    """Q, K and V that a start after X read from the document (its mode's objects), not the stand-ins it invents
    for the scores or the weights (those are hidden from matching, infer/starts.py)."""
    mode = dims.get("mode")
    if mode is None or mode.value == "X" or not mode.uses:
        return set()
    hide = dims["hide"].value if "hide" in dims else ()
    # the scores or the weights a start reads are given too ("QKt" stands for the printed scores, whatever scale
    # the search then finds; the weights start gives A)
    given = {"scores": {"QKt"}, "weights": {"A"}}.get(mode.value, set())
    return given | {n for n in ("Q", "K", "V") if n in dims and n not in hide}


def _distance(printed: np.ndarray, exact: np.ndarray) -> float:
    """The largest difference between printed and exact values (a masked cell must be printed as masked)."""
    with np.errstate(invalid="ignore"):
        inf_p, inf_e = np.isinf(printed), np.isinf(exact)
        if np.any(inf_p != inf_e):
            return math.inf
        d = np.abs(np.where(inf_e, 0.0, exact) - np.where(inf_p, 0.0, printed))
    return float(d.max()) if d.size else math.inf


def _name(o: Obj) -> str:
    return o.a.label.strip()[:40] or (o.ref.show() if o.ref is not None else "unlabelled")


def _short(o: Obj) -> str:
    nums = [c.text for c in o.a.numbers]
    return "[" + ", ".join(nums[:6]) + (", …" if len(nums) > 6 else "") + "]"


def says_the_other_scale(o: Obj, scaled: bool, lines: list[str]) -> bool:
    """Do the words on or over the object (its names, the line right above its first row) say it has the other
    scale than the configuration's (`divide = False   -> output` over an output judged under 1/√d_k)?  Then every
    entry being the other scale's value is the setting shown, not a slip."""
    k = o.a.line - 2
    while 0 <= k < len(lines) and not lines[k].strip():
        k -= 1
    above = lines[k] if 0 <= k < len(lines) and o.a.place.cell is None else ""
    return _words_say(o, not scaled, above)
