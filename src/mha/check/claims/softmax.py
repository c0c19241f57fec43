"""The softmax pair: a row of scores and, beside it or on the next line, its softmax ("scores | softmax" table rows,
`Softmax = [...]` under `Scores = [...]`).  The pair states y = softmax(x) whatever the configuration, so it is
judged against its own printed scores, as an arithmetic line is, and not against the inferred trace (a document
often shows the softmax of unscaled scores beside the scaled one, to compare them)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np

from ..infer import Obj, alignments
from ..infer.written_scale import carries_its_scale, stated_scale
from ..model import half_units
from ..numbers import MASK_FILL, Num, nines_below_one, tiny_above_zero
from ..report import Finding, NotChecked
from .common import _simple_kind
from .rescaled import rescaled_row
from .namedsoftmax import named_argument, names_another
from .normalised import over_their_sum
from .slippedscore import MIN_OTHERS, plausible_slip, score_finding, slipped_score
from .softmaxroots import arrow_summary, masked_root, unscaled_root
from .truncation import CUT_OFF, follows


@dataclass
class SoftmaxPairClaim:
    x: Obj           # the scores as printed
    y: Obj           # their softmax as printed
    written: bool = False    # softmax([...]) = [...] written out, not two arrays side by side
    told: bool = False       # a few lines apart, tied by a line that names the softmax (judged when nothing else is)
    by_mask: bool = False    # tied only by where their -∞ and 0 stand (no notation says they belong together)


OF_PRINTED_SCORES = "of the softmax of the scores at line"      # (claims/requoted.py reads it back)


def _causal_zeros(rows) -> bool:
    """Do the printed weights end in zeros, row by row, as a causal mask leaves them (n-1 zeros in the first row,
    one fewer in each next row, none in the last)?  A single row, or zeros anywhere else, say nothing of a mask
    (`softmax([2, 4, 4]) = [0.0, 0.5, 0.5]` is a rounding, wrong or not)."""
    if len(rows) < 2 or any(r is None or any(n is None for n in r) for r in rows):
        return False
    n = len(rows[0])
    if len(rows) != n or any(len(r) != n for r in rows):
        return False
    for i, r in enumerate(rows):
        tail = r[i + 1:]
        if any(x.value != 0 for x in tail) or (i + 1 < n and r[i].value == 0):
            return False
    return True


def softmax_pairs(objs: list[Obj], said: dict | None = None, defines: list | None = None) -> list[SoftmaxPairClaim]:
    """Each vector (or column of a table, rows stacked) named as weights or softmax whose neighbour just before it,
    on its line or the line above, has as many scores; or a few lines above, where a line between them names the
    softmax (`raw_scores = [...]`, `# after the softmax:`, `attention_weights = [...]`; `said`: those lines)."""
    out = []
    grids = [o for o in objs if o.val is not None and o.slices == 1 and o.val.shape[1] >= 2 and np.isfinite(o.val).all()
             and not o.a.elided]
    for k, y in enumerate(grids):
        if not _names(y, {"A"}) or k == 0 or y.a.softmax_of is not None or other_normaliser(y):
            continue
        x = grids[k - 1]
        if names_another(x, y):
            # `softmax(large_scores) ≈ [..]` under small_scores: large_scores it is
            x = named_argument(y, grids, defines)
            if x is not None and (y.val >= 0).all() and (y.val <= 1 + 1e-9).all():
                out.append(SoftmaxPairClaim(x, y, written=True))
            continue
        if _skips_between(objs, x, y) or any(g.a.place.cell == x.a.place.cell and g.a.line == x.a.line and
                                             g.val.shape == x.val.shape for g in grids[k + 1:]):
            continue         # `scores = [1, 0] / sqrt(2) = [0.7071, 0]`: the row its line ends with was read apart,
            #                  after these weights; the row before them in reading order is not the one they follow
        gap = y.a.line - x.a.line
        after = y.a.line - max([x.a.line] + [n.line for n in x.a.numbers if n.line])    # from x's last line
        last = y.a.line - after
        # blank lines and code fences between them do not count (a fence closes the scores, another opens the weights)
        after -= sum(1 for k in range(last + 1, y.a.line) if said and said.get(k) == "blank")
        rows = after - 2 if y.a.style == "table" else after   # a table's header and rule come before its numbers
        # tied by a line between them that says so ("# after the softmax:"): the weights are that softmax even
        # where they do not sum to one (made-up weights are what such a pair shows wrong)
        # (each alone on its line: `S_1 = .., S_2 = ..` over `A_1 = .., A_2 = ..` pairs by name, not by order)
        # (y alone on its line, and x the last object of its own: `QKᵀ/√2 = (1/√2)(..) = (..)` ends in the scores)
        told = x.a.place.cell is None and (2 <= rows <= 4 and _said_between(said, last, y.a.line) or
                                           1 <= rows <= 4 and _said_after(said, last, y.a.line)) and \
            sum(o.a.line == y.a.line for o in grids) == 1 and \
            not any(o.a.line == x.a.line and o.a.place.order > x.a.place.order for o in grids if o is not y)
        # (a blank line between two rows of one printed block parts nothing: "Scores: [..]", "", "Softmax: [..]")
        same = x.a.place.cell == y.a.place.cell and (0 <= gap <= 1 or (gap >= 2 and after <= 1 and
                                                                       _one_block(x, y)) or told)
        if _scaled_in_label(y) and not _names(x, {"S"}):
            continue         # "A = softmax(QKᵀ/√4)" under the raw QKᵀ: the softmax of the scaled scores, not of these
        # told: the scores may go unnamed ("Scale: divide by √2" over `[0.16, 0.14, 0.28]`, then "Softmax:")
        named = _names(x, {"QKt", "S"}) or (told and not x.a.label and x.ref is None)
        if same and x.val.shape == y.val.shape and named and (y.val >= 0).all() and \
                (told and (y.val <= 1).all() or np.all(np.abs(y.val.sum(axis=1) - 1.0) <= 0.02 * y.val.shape[1])):
            out.append(SoftmaxPairClaim(x, y, told=told and not 0 <= gap <= 1))
    return out + _written_pairs(objs) + _masked_pairs(objs, {id(c.y.a) for c in out})


def _cut_off(f: Finding) -> bool:
    """Is the printed weight its exact value with the digits past the last printed one cut off (truncation.py)?"""
    try:
        return isinstance(f.exact, float) and follows(Num.parse(f.printed), f.exact) == "cut"
    except ValueError:
        return False


def _said_between(said: dict | None, a: int, b: int, scale_ok: bool = False) -> bool:
    """Does a line between a and b name the softmax, and none give a number of its own (a temperature, a scale;
    with scale_ok, a line that states the scale is allowed)?"""
    kinds = [said.get(k) for k in range(a + 1, b)] if said else []
    return "softmax" in kinds and "number" not in kinds and (scale_ok or "scale" not in kinds)


def _said_after(said: dict | None, a: int, b: int) -> bool:
    """Does line a, the scores' own, end by naming the softmax ("S = [0, 0, 5], Softmax:"), with only blank lines
    and fences down to line b?"""
    return bool(said) and said.get(a) == "softmax_after" and all(said.get(k) == "blank" for k in range(a + 1, b))


def _errors(found: list[Finding]) -> int:
    return sum(f.severity == "error" for f in found)




def _one_block(x: Obj, y: Obj) -> bool:
    """Two rows of one printed block (a fence's lines, read as output), not two paragraphs of prose."""
    return x.val.shape[0] == 1 and x.a.place.where == y.a.place.where == "output"


def _scaled_in_label(y: Obj) -> bool:
    """The weights' own label divides what goes into the softmax (`softmax(QKᵀ/√d_k)`, `softmax(S / 2)`)."""
    return any(re.search(r"softmax.*(?:sqrt|√|\\frac|/|÷)", (lab or "").replace(" ", ""), re.I)
               for lab in [y.a.label] + list(y.a.labels))


def _skips_between(objs: list[Obj], x: Obj, y: Obj) -> bool:
    """Is another object printed between the two (masked scores with -1e9, an elided row)?  Then x is not the row
    beside y: `raw: [3. 1. -2.] -> softmax [...]` over `masked: [3.e+00 -1.e+09 -2.e+00] -> softmax [...]` pairs the
    second softmax with the masked scores, never with the first softmax."""
    ids = [id(o) for o in objs]
    if id(x) not in ids or id(y) not in ids:
        return False
    return ids.index(id(y)) - ids.index(id(x)) > 1


def _masked_pairs(objs: list[Obj], taken: set[int]) -> list[SoftmaxPairClaim]:
    """Masked scores printed, then (a few lines on) the weights: the weights are 0 exactly where the scores are -∞,
    and nowhere is a weight missing where a score is finite.  That mask pattern ties the two whatever lies between
    (a heading, a comment, the code that computes them); rows elided on both sides (`...`) are skipped."""
    out = []
    for k, y in enumerate(objs):
        # weights with no name at all (a table under its column headers) are tied by the mask pattern alone
        if id(y.a) in taken or not (_names(y, {"A"}) or not y.refs) or not y.a.numbers or other_normaliser(y):
            continue
        for x in reversed(objs[max(0, k - 3):k]):
            if x.a.place.cell != y.a.place.cell and x.a.place.cell is not None and \
                    (y.a.place.cell or 0) - x.a.place.cell > 1 or not 0 <= y.a.line - x.a.line <= 15 or \
                    (y.a.line == x.a.line and x.a.id >= y.a.id):
                continue
            if _other_head(x, y):
                continue
            if (_names(x, {"QKt", "S"}) or not x.refs or _masked_scores(x)) and _mask_agrees(x.a.rows, y.a.rows):
                out.append(SoftmaxPairClaim(x, y, written=True, by_mask=True))
                break
    return out


def _masked_scores(x: Obj) -> bool:
    """Named as the mask ("After masking: [2.1, 3.5, -inf]"), but its live entries are not all 0: the scores masked,
    not an additive mask."""
    live = [n.value for r in x.a.rows if r for n in r if n is not None and math.isfinite(n.value)]
    return _names(x, {"mask"}) and len(live) >= 2 and any(v != 0 for v in live) and \
        any(n is not None and n.value == -math.inf for r in x.a.rows if r for n in r)


def _said_next(c: SoftmaxPairClaim) -> bool:
    """Masked scores and weights on one line or the next, the weights named as their softmax ("After masking: [..].
    After softmax: [..]"): the page says whose softmax they are, however many of them are off."""
    x, y = c.x.a, c.y.a
    return x.place.cell == y.place.cell and 0 <= y.line - x.line <= 1 and \
        bool(re.search(r"softmax|归一化|正規化", y.label or "", re.I))


def _head(o: Obj) -> int | None:
    return o.ref.head if o.ref is not None and o.ref.head is not None else o.head_hint


def _other_head(x: Obj, y: Obj) -> bool:
    """Head 2's masked scores before A^(1): both say which head they belong to, and the heads differ."""
    return _head(x) is not None and _head(y) is not None and _head(x) != _head(y)


def _mask_agrees(xr: list, yr: list) -> bool:
    """Same layout; at least one -∞ score; weights 0 exactly at the -∞ scores, rows of weights summing to 1."""
    if len(xr) != len(yr):
        return False
    masked = 0
    for a, b in zip(xr, yr):
        if (a is None) != (b is None):
            return False
        if a is None:
            continue
        if len(a) != len(b) or any(c is None for c in a + b):
            return False
        for s, w in zip(a, b):
            if s.value == -math.inf or s.value <= MASK_FILL:
                masked += 1
                if w.value != 0:
                    return False
            elif not math.isfinite(s.value) or w.value < 0:
                return False
        if abs(sum(w.value for w in b) - 1.0) > 0.02 * len(b):
            return False
    # a mask alone (0 and -∞) is not the scores: its softmax is uniform over the keys it keeps
    return masked > 0 and any(c.value != 0 and MASK_FILL < c.value < -MASK_FILL for r in xr if r for c in r)


def _written_pairs(objs: list[Obj]) -> list[SoftmaxPairClaim]:
    """softmax([0.3, 2.0, -∞]) = [0.15, 0.85, 0]: the reader tied the result to the vector it is applied to; a
    masked entry (-∞) of that vector is a 0 of the result."""
    by_array = {id(o.a): o for o in objs}
    out = []
    for y in objs:
        x = by_array.get(id(y.a.softmax_of)) if y.a.softmax_of is not None else None
        if x is None or x.val is None or y.val is None or x.val.shape != y.val.shape or x.val.shape[0] != 1 \
                or np.isnan(x.val).any() or np.isposinf(x.val).any() or not np.isfinite(x.val).any() \
                or not np.isfinite(y.val).all() or (y.val < 0).any() or (y.val > 1 + 1e-9).any():
            continue     # (a result above 1 is no row of weights: "Softmax([1, 3, 3]): [1, 3, 3]" gives shapes)
        out.append(SoftmaxPairClaim(x, y, written=True))
    return out


def other_normaliser(y: Obj) -> bool:
    """The weights' label computes them some other way than a softmax: `scores / scores.sum()`, `sigmoid(scores)`,
    `relu(scores) / 4` (a page comparing normalisations); no softmax of the scores beside them is claimed."""
    for lab in [y.a.label] + list(y.a.labels):
        lab = (lab or "").replace(" ", "")
        if re.search(r"softmax|exp|\\sigma_?\{?soft|σ\(|attention\(", lab, re.I):
            return False
        if re.search(r"[A-Za-z_]\w*\(|[/÷]|\.sum\b", lab):
            return True
    return False


def source_factor(x: Obj, y: Obj) -> float | None:
    """The factor the code that printed the weights applies to the scores' name inside the softmax
    (`W = torch.softmax(S_masked / 2, dim=-1)` gives 0.5), when it is a plain number; None otherwise."""
    f = _factor_in(x, [y.a.source]) if y.a.source else None
    return f if isinstance(f, float) else None


def label_factor(x: Obj, y: Obj) -> float | bool | None:
    """What the weights' label does to the scores' own name inside the softmax: `softmax(scores / 0.5)` gives the
    factor 2.0, `softmax(2 * logits)` 2.0; `softmax(scores / T)` or any other arithmetic on the name is a change
    the label does not give (False); None when the label applies softmax to the name as it is (or adds a mask to
    it), or does not name the scores."""
    return _factor_in(x, [y.a.label] + list(y.a.labels))


def _factor_in(x: Obj, texts: list[str]) -> float | bool | None:
    """What the first of these texts that applies softmax to the scores' name does to it (label_factor)."""
    name = (x.a.label or "").strip()
    if not name or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return None
    for lab in texts:
        m = re.search(r"softmax\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", lab or "")
        if not m:
            continue
        arg = re.split(r",\s*(?:dim|axis)\s*=", m.group(1))[0].replace(" ", "")
        if not re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w.])", arg) or arg == name:
            continue
        num = r"(\d+(?:\.\d+)?)"
        for pattern, invert in ((re.escape(name) + r"[/÷]" + num, True), (re.escape(name) + r"[*×·]" + num, False),
                                (num + r"[*×·]" + re.escape(name), False)):
            f = re.fullmatch(pattern, arg)
            if f and float(f.group(1)) > 0:
                return 1 / float(f.group(1)) if invert else float(f.group(1))
        if re.fullmatch(re.escape(name) + r"[+]\w*mask\w*|\w*mask\w*[+]" + re.escape(name), arg, re.I):
            return None                # softmax(scores + mask): the masked pair is the mask's to tie
        return False
    return None


def _names(o: Obj, nodes: set[str]) -> bool:
    return any(set(r.nodes) & nodes for r in o.refs)


class SoftmaxJudging:
    """Judge methods for SoftmaxPairClaim."""

    def judge_softmax_pair(self, c: SoftmaxPairClaim) -> None:
        weights_judged(self, c.y)
        normalised = over_their_sum(c) if not c.written else None
        if normalised is not None:
            # `scores: [1, 1, 2]` over `weights: [0.25, 0.25, 0.5]`: the scores divided by their sum (a first
            # normalisation before the softmax is taught), judged as that; an entry off it is one slip
            self.n_claims += 1
            for num, line, exact in normalised:
                self.n_numbers += 1
                if exact is not None:
                    self.add(Finding(line, c.y.a.place.cell, f"{c.y.a.label or 'weights'}: a score over the row's sum",
                                     num.text, exact, num.rounded(exact), "softmax",
                                     f"the other weights are the scores at line {c.x.a.line} over their sum, "
                                     f"which gives {num.rounded(exact)} here", _simple_kind(num, exact)))
            return
        arrow: tuple = ()
        if c.y.a.softmax_arrow:
            if not hasattr(self, "_arrows"):
                self._arrows = arrow_summary(self.doc.arrays)       # once a document: (most fit, their roots)
            fit, roots = self._arrows
            if not fit:
                self.not_checked.append(NotChecked(c.y.a.line, c.y.a.place.cell, c.y.a.label or "unlabelled",
                                                   "the rows written `[scores] → [weights]` here are mostly not "
                                                   "softmax rows: the arrow is another step; no entry is judged"))
                return
            arrow = tuple(1 / math.sqrt(d) for d in roots)
        # the raw QKᵀ printed beside the weights of the scaled scores: softmax(QKᵀ·scale) is what the weights are
        # (the scale the configuration, or the text, uses); a row that is that holds
        scales = (1.0, *self._raw_scores_scales(c), *arrow)
        factor = label_factor(c.x, c.y)
        if factor is False:
            self.not_checked.append(NotChecked(c.y.a.line, c.y.a.place.cell, c.y.a.label or "unlabelled",
                                               "the softmax of these scores under a factor the label names but does "
                                               "not give (a temperature?): not judged"))
            return
        if factor is None:
            factor = source_factor(c.x, c.y)
        if factor is not None:
            scales = (factor,)             # softmax(scores / 0.5): a temperature the label (or its code) gives
        found, checked = self._softmax_pair_findings(c, scales)
        wrong = _errors(found)
        worked = self._scores_put_right(c.x) if wrong else None
        if worked is not None:
            # softmax([30/√512, …]) = softmax([1.33, 1.21, …]) ≈ [w]: a slip in the worked argument is that line's
            # finding (claims/vector.py, claims/rescaled.py); a weight is wrong only if it is the softmax of neither
            # the argument as printed nor as worked right (one slip, one finding)
            x = replace(c.x, a=replace(c.x.a, rows=[worked]))
            again, n = self._softmax_pair_findings(replace(c, x=x), scales)
            self.n_numbers -= n
            both = {(g.line, g.claim) for g in again if g.severity == "error"}
            found = [f for f in found if f.severity != "error" or (f.line, f.claim) in both]
            wrong = _errors(found)
        root = masked_root(c) if c.by_mask and wrong else None
        if root is not None:
            # `torch.softmax(masked / keys.shape[-1]**0.5)`: the masked scores were printed before the scale; the
            # whole d that most rows' weights give, if the pair then agrees better, is the scale the code applied
            scaled, n = self._softmax_pair_findings(c, (1 / math.sqrt(root),))
            self.n_numbers -= n
            if _errors(scaled) < wrong:
                self.n_numbers += n - checked
                found, checked, wrong = scaled, n, _errors(scaled)
        if c.by_mask and wrong > max(1, checked // 3) and not _said_next(c):
            # weights that mostly disagree with these scores are not theirs (another head, example): said, not judged
            self.not_checked.append(NotChecked(c.y.a.line, c.y.a.place.cell, c.y.a.label or "unlabelled",
                                               f"{wrong} of its {checked} weights are not the softmax of the scores "
                                               f"printed at line {c.x.a.line} with the same mask: not read as "
                                               "theirs; no entry is judged"))
            self.n_numbers -= checked
            return
        self.n_claims += 1
        if wrong > 1 and self._weights_of_configuration(c.y):
            return          # the weights are the configuration's: the scores beside them carry the slip, and their
                            # own claim finds it (one slip, one finding, not a row of them)
        for f in found:
            self.add(f)

    def _scores_put_right(self, x: Obj) -> list | None:
        """The printed scores x with each entry their own written arithmetic (claims/vector.worked_arguments) or the
        row they rescale (claims/rescaled.py) does not give put right, rounded as printed; None when neither
        applies or every entry holds."""
        return getattr(self, "worked", {}).get(id(x.a)) or rescaled_row(getattr(self, "rescaled", {}), x)

    def _weights_of_configuration(self, y: Obj) -> bool:
        """Every printed weight is the inferred configuration's attention weights (a view matched whole)."""
        vs = getattr(self, "vs", None)
        return vs is not None and y.val is not None and any(h.all and h.view is not None and h.view.node == "A"
                                                            for h in alignments(y, vs))

    def _declared_approximate(self, row) -> bool:
        """The same numbers, digit for digit, stand in a row the document declares approximate ("for readability,
        approximate the above as follows" over a literal): the written softmax is that illustration.  Without such a
        declaration 0.0 for 0.06 is wrong at one decimal, as any other number is wrong outside its rounding."""
        texts = [n.text if n is not None else None for n in row]
        return any(a.context.approx and any(r is not None and [n.text if n is not None else None for n in r] == texts
                                            for r in a.rows) for a in self.doc.arrays)

    def _raw_scores_scales(self, c: SoftmaxPairClaim) -> list[float]:
        """The scales to try when the scores of the pair are the raw QKᵀ (named so, or said to be raw: "原始分数"):
        the configuration's, and those the text states ("kq_scale = 1/8", "divided by √64")."""
        # "scores" names the raw and the scaled ones alike: the scales the text states are tried for them too
        # (`[1.780, 0.310, 1.230] → weights: [0.492, 0.174, 0.334]` under "Q₁ · K₁ᵀ, then scale by √2")
        raw = _names(c.x, {"QKt"})
        if c.written or not raw or carries_its_scale(c.x):
            return []           # ("Raw scores (with 1/√2): [[√2, 0], ...]": the scale its label writes is applied)
        out = []
        t = getattr(self, "t", None)
        if t is not None and t.config.effective_scale not in (None, 1):
            out.append(float(t.config.effective_scale))
        out += [v for v in map(stated_scale, self.doc.hints) if v is not None and v != 1]
        return list(dict.fromkeys(round(x, 12) for x in out))

    def _softmax_pair_findings(self, c: SoftmaxPairClaim, scales: tuple = (1.0,)) -> tuple[list[Finding], int]:
        """Each row's findings under the scale (of those given, the printed scores' own first) that leaves it the
        fewest errors: a row masked causally reads as plain, the next as the stated 1/8 of the raw scores."""
        rows = [(i, row) for i, row in enumerate(c.y.a.rows)
                if row is not None and c.x.a.rows[i] is not None and not any(n is None for n in c.x.a.rows[i])]
        # each row under each scale, once; a tie within a row goes to the scale the whole pair takes (fewest errors)
        causal = _causal_zeros(c.y.a.rows)        # weights printed after a causal mask: their rows are masked
        got = {(i, scale): self._row_findings(c, i, row, scale, causal) for i, row in rows for scale in scales}
        ranked = sorted(scales, key=lambda sc: sum(_errors(got[i, sc]) for i, _ in rows if got[i, sc] is not None))
        found: list[Finding] = []
        checked = 0
        for i, row in rows:
            best = None
            for scale in ranked:
                g = got[i, scale]
                if g is not None and (best is None or _errors(g) < _errors(best)):
                    best = g
            if best is None:
                continue
            if _errors(best) > 1 and got.get((i, scales[0])) is not None:
                # no scale leaves the row at one slip or none: none is borne out by it, so the row is judged as the
                # scores are printed (`Scores: [2.0, 2.3, 2.1]` under "with scaling": already scaled)
                best = got[i, scales[0]]
            n = sum(1 for num in row if num is not None)
            self.n_numbers += n
            checked += n
            found.extend(best)
        return found, checked

    def _row_findings(self, c: SoftmaxPairClaim, i: int, row, scale: float,
                      causal: bool = False) -> list[Finding] | None:
        """The row's findings; a row that ends in printed zeros is also read as padded (d2l's `masked_softmax(X,
        valid_lens)` keeps each row's first keys), and that reading is kept when it leaves fewer errors."""
        plain = self._row_findings_as(c, i, row, scale, causal)
        if causal or _said_masked(c.y) or not row or row[-1] is None or row[-1].value != 0 or not _errors(plain or []):
            return plain
        k = _before_zeros(row)
        # the keys the zeros keep out, or one more (a zero slipped to 0.1000 just before them is the one finding)
        best = plain
        for kept in (k, k - 1):
            padded = self._row_findings_as(c, i, row, scale, causal, kept=kept) if kept >= 1 else None
            if padded is not None and _errors(padded) < _errors(best or []):
                best = padded
        return best

    def _row_findings_as(self, c: SoftmaxPairClaim, i: int, row, scale: float,
                         causal: bool = False, kept: int | None = None) -> list[Finding] | None:
        x = np.array([n.value for n in c.x.a.rows[i]], dtype=float) * scale
        if causal:
            x[i + 1:] = -np.inf           # the keys after the query, as the printed zeros say
        elif kept is not None:
            x[kept:] = -np.inf            # a padded row: its first `kept` keys only
        elif _said_masked(c.y) and row:
            # "masked weights, row 2: [0.3302, 0.6698, 0.0]" after its unmasked scores: the zeros that end the
            # row are the keys the mask hides
            x[_before_zeros(row):] = -np.inf
        e = np.exp(x - x[np.isfinite(x)].max())
        p = e / e.sum()
        # how far the rounding of the printed scores moves each weight: |dp_j/dx_k| = p_j |δ_jk - p_k|; scores
        # printed to one decimal are exact givens, as inputs are; two or more decimals may be the rounding of
        # scores worked at full precision ([0, 2.12, 1.41] for [0, 3, 2]/√2): a difference within what that
        # rounding explains is a note
        # (an entry shorter than the rest, 0.9 beside 0.95, is its value to the row's longest precision: read as
        # 0.85..0.95, it let a weight one unit off pass as the scores' rounding)
        half = half_units([c.x.a.rows[i]], decimals_floor=2, longest=True)
        half = np.zeros(len(p)) if half is None else np.where(np.isfinite(x), half[0], 0.0) * scale
        band = 1.25 * np.abs(np.diag(p) - np.outer(p, p)) @ half
        if c.written and _rough(row, p) and self._declared_approximate(row):
            return None
        found: list[Finding] = []
        for j, num in enumerate(row or []):
            if num is None:
                continue
            exact = float(p[j])
            if num.contains(exact) or nines_below_one(num, exact) or tiny_above_zero(num, exact):
                continue        # [100, 1, 1] → softmax → [0.99999, 0.00001, 0.00001]: saturated, as authors write it
            # eight decimals of a weight near 1 are past float32 (0.99999988 for 0.9999998875): its own rounding
            note = num.contains(exact, float(band[j])) or num.contains(exact, 1.2e-7 * abs(exact))
            if note and c.written:
                continue        # scores printed far from their weights: within their rounding is all one can say
            found.append(Finding(num.line or c.y.a.row_line(i), c.y.a.place.cell,
                                 f"weight {j + 1} {OF_PRINTED_SCORES} {c.x.a.row_line(i)}" +
                                 (f" over its first {kept} keys (the zeros after them are padding)" if kept else ""),
                                 num.text, exact,
                                 num.rounded(exact), "softmax", "follows from the rounded scores printed beside it"
                                 if note else f"the softmax of the scores printed beside it gives "
                                 f"{num.rounded(exact)}", "rounded_sum" if note else _simple_kind(num, exact),
                                 "note" if note else "error"))
        if CUT_OFF in self.inf.evidence:
            # the document cuts its digits off throughout (claims/truncation.py): a weight cut off is no slip here
            found = [f for f in found if f.severity != "error" or not _cut_off(f)]
        wrong = [f for f in found if f.severity == "error"]
        if len(wrong) >= 2 and all(_cut_off(f) for f in wrong):
            return [f for f in found if f.severity != "error"]     # [0.13, 0.24, 0.23, ...] for 0.1387, 0.2379, ...:
            # every weight it gets wrong is its exact value cut off, not rounded: the page truncates (0.1387 → 0.13)
        root = unscaled_root(x, row) if c.written and _errors(found) > 1 else None
        if root is not None and c.y.a.softmax_arrow:
            return []                   # `[raw] → [weights]`: the arrow's step may scale first; softmax(x/√d) it is
        if root is not None:            # one slip (the row inside softmax() left unscaled), one finding
            f = next(f for f in found if f.severity == "error")
            f.cause = (f"the printed weights are the softmax of this row divided by √{root} = "
                       f"{math.sqrt(root):g}: the row inside softmax() is not scaled")
            found = [f]
        elif _errors(found) >= 2 and not c.y.a.softmax_arrow:
            printed = half_units([c.x.a.rows[i]], decimals_floor=0)     # every score's own rounding, here
            printed = half if printed is None else np.where(np.isfinite(x), printed[0], 0.0) * scale
            if all(n is not None and n.decimals is None and float(n.value).is_integer() for n in c.x.a.rows[i]):
                printed = np.zeros(len(x))      # whole scores ([2, 5, 1] from q = 2, k = [1, 2, 0.5]) are exact
            score = _slipped_score_finding(c, i, row, x, printed, scale)
            if score is not None and c.x.a.id not in getattr(self, "uses", ()) and \
                    _scores_of_the_trace(self, c.x.a.rows[i]):
                score = None        # the scores are the configuration's, each of them: the weights are wrong
            if score is not None:
                found = [score]         # one score slipped moves every weight of its row: one finding, on it
                self.slipped_rows = getattr(self, "slipped_rows", set()) | {(c.y.a.place.cell, c.y.a.row_line(i))}
        return found


def weights_judged(judge, y: Obj) -> None:
    """y is judged against the scores printed beside it: a "not checked" said of it against the configuration
    (another shape, no match) is set aside once everything is judged (verdict.judge_document)."""
    name = y.a.label.strip()[:40] or "unlabelled"
    judge.weights_judged = getattr(judge, "weights_judged", set()) | {
        (y.a.line, y.a.place.cell, f"{name} ({'×'.join(map(str, y.a.shape))})")}


def _scores_of_the_trace(judge, scores) -> bool:
    """Is this row of printed scores, every finite entry, a row of the configuration's Q Kᵀ or scaled scores
    (`S' = S + M` restating the Q Kᵀ printed above it, masked)?  Then none of them slipped, whatever the weights
    after it say.  (Only for scores the configuration computes: scores it starts from agree with themselves.)"""
    t = getattr(judge, "t", None)
    finite = [(k, n) for k, n in enumerate(scores) if n is not None and math.isfinite(n.value) and n.value > -1e4]
    if t is None or len(finite) < 2:
        return False
    for name in ("QKt", "S"):
        M = getattr(t, name, None)
        if M is None:
            continue
        for Mh in M[0]:
            if Mh.shape[1] == len(scores) and any(all(n.contains(float(r[k])) for k, n in finite) for r in Mh):
                return True
    return False


def _slipped_score_finding(c: SoftmaxPairClaim, i: int, row, x: np.ndarray, half: np.ndarray,
                           scale: float) -> Finding | None:
    """The finding on the one score of row i that the weights say was slipped (claims/slippedscore.py), else None."""
    if row is None or any(n is None for n in row) or len(row) != len(x):
        return None
    if any(_SUPPOSED.search(t or "") for t in (c.x.a.label, *(c.x.a.labels or []))):
        return None             # "suppose a row's scores are [2, 5, 1]": the author's own givens, no slip of theirs
    # (a pair the page ties in words, "After softmax, the weights are:" under "Raw similarities:", says what a
    # written softmax(...) says)
    said = c.written or any("softmax" in (t or "").lower() for t in (c.y.a.label, *(c.y.a.labels or [])))
    got = slipped_score(x, half, [n.value for n in row], [n.half for n in row], 1.0,
                        MIN_OTHERS if said else MIN_OTHERS + 1)
    if got is None or not plausible_slip(c.x.a.rows[i][got[0]], got[2] / scale, got[3] / scale, c.x.a.rows[i]):
        return None
    line = c.x.a.row_line(i)
    got = (got[0], *(v / scale for v in got[1:]))
    return score_finding(c.x.a.rows[i][got[0]], line, c.x.a.place.cell, f"score {got[0] + 1} of the scores at line "
                         f"{line}", got, c.y.a.row_line(i))


def _rough(row, p: np.ndarray) -> bool:
    """A written softmax printed to one decimal, each weight within a unit of it (0.0 for 0.06): not judged when
    the document declares these numbers an approximation (SoftmaxJudging._declared_approximate)."""
    nums = [n for n in row or [] if n is not None]
    return bool(nums) and all((n.decimals or 0) <= 1 for n in nums) and \
        all(abs(n.value - float(q)) <= 0.1 + 1e-9 for n, q in zip(row, p) if n is not None)


# scores the author posits rather than works out: a slip can only be in what follows from them
_SUPPOSED = re.compile(r"\b(?:suppose|supposing|assume|assuming|imagine|let's say|say)\b|假设|假定|假如|不妨设|"
                       r"仮に|と仮定|가정", re.I)
_MASK_WORDS = re.compile(r"mask|causal|掩码|遮罩|因果|マスク|마스크", re.I)


def _before_zeros(row) -> int:
    """How many entries of the row come before the printed zeros that end it (at least one)."""
    k = len(row)
    while k > 1 and row[k - 1] is not None and row[k - 1].value == 0:
        k -= 1
    return k


def _said_masked(y: Obj) -> bool:
    """Do the weights' own names say they are masked ("masked weights", "causal_attn", 掩码后的权重)?"""
    return any(_MASK_WORDS.search(t or "") for t in [y.a.label] + list(y.a.labels or []))
