"""Which entry of the trace an arithmetic line computes: from its label (α_{21}, q_1·k_2, m_1, "the sum"), from the
factors of a dot product (Q Kᵀ, A V, X W, O_concat W_O), or from the value it lands on; and the step it belongs to."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np

from .. import labels as lb
from .. import numbers as nb
from ..infer import _family
from ..objects import Chain, LabelPart
from ..readers.sizewords import SIZE_UNITS
from .common import _band, rounded_terms


# max(0, ·): a hinge, a ReLU (the line computes a penalty or an activation, whatever its letter names)
_HINGE = re.compile(r"(?:\\max|\bmax)\s*(?:\\left)?\s*[({]\s*0(?:\.0*)?\s*,")


class Targets:
    """Judge methods: the exact values an arithmetic line may stand for."""

    def named_peers_hold(self, c: Chain) -> bool:
        """Two or more other lines of this section that only name an entry and quote it (`α_1 = 0.6095`) hold: the
        configuration explains the section's quotes, though it prints no array beyond its inputs (scores given,
        then the weights one per line), so a quote among them that disagrees is this example's slip.  Not when the
        section quotes this entry with another value too, or prints an array between the quotes and this line
        ("now raise the third score to 3.0: [1.0, 2.0, 3.0]", then `α_3 = 0.6652`: another example's)."""
        quotes = getattr(self, "_quotes", None)
        if quotes is None:
            quotes = self._quotes = []
            for x in self.doc.chains:
                if len(x.parts) != 2 or not isinstance(x.parts[0], LabelPart) or x.rels not in (["="], ["≈"]):
                    continue
                n = nb.plain_number(x.parts[1].expr) if hasattr(x.parts[1], "expr") else None
                t = self.arith_target(x, [(1, x.parts[1], n.value)]) if n is not None else None
                if t is not None and t[3]:
                    quotes.append((x, t[0], n, any(n.contains(float(v)) for v in t[2])))
        section = self.section_of(c.place)
        mine = next((q for q in quotes if q[0] is c), None)
        if mine is None:
            return False
        here = [q for q in quotes if self.section_of(q[0].place) == section]
        if any(q[1] == mine[1] and q[0] is not c and q[2].text != mine[2].text for q in here):
            return False
        held = [q for q in here if q[0] is not c and q[3]]
        if len(held) < 2:
            return False
        first = min(q[0].place.line for q in held)
        at = (c.place.cell or 0, c.place.line)
        return not any((a.place.cell or 0) == at[0] and min(first, at[1]) < a.line < at[1] and
                       self.section_of(a.place) == section for a in self.doc.arrays)

    def arith_target(self, c: Chain, values) -> tuple[str, str, list[float], bool] | None:
        """Which trace entry an arithmetic line computes: from its label, or from the shape of its terms."""
        if self.vs is None or _HINGE.search(c.text):
            return None          # ℓ_1 = max(0, 0.5 - 0) = 0.5: a hinge or a ReLU, no quantity of attention's trace
        loose = None
        for p in c.parts:
            if isinstance(p, LabelPart):
                ref = self.inf.bases.label(p.text)
                if ref is None:
                    continue
                if ref.row is None and ref.col is None and re.fullmatch(r"\s*[A-Za-zα-ω]\s*", p.text):
                    continue             # "a = 0.1" (a step size, a slope): one bare letter names no entry
                e = self.entry(ref, c)
                if e is not None and e[3] and ref.nodes[0] in ("O", "Y", "O_concat") and \
                        re.fullmatch(r"\s*[A-Za-z]\s*_.*", p.text):
                    # z_{2,2} = 5.0000/1.414214 ≈ 3.535534 under "Scale by √d_k": a letter that names outputs in one
                    # notation and scaled logits in another; where the line's worked value is no entry of the
                    # outputs but lands on a score, the score is what it computes
                    landed = self._landing(c, values)
                    if landed is not None and landed[0] not in ("O", "Y", "O_concat") and \
                            not any(_near(x, landed[2][0]) for x in e[2]):
                        return landed
                if e is not None and e[3]:
                    return e             # "Dot products: q1·k1 = 2": the entry's own name, not the list's word
                loose = loose or e
        if loose is not None:
            return loose
        for k, p, v in values:
            got = self.dot_product(p.expr, c)
            if got is not None:
                return got
        landed = self._landing(c, values)
        if landed is not None:
            return landed
        step = _arith_step(values) or size_step(c.text) or c.context.step
        if step:
            return (c.text[:40], step, [], True)
        return None

    def _landing(self, c: Chain, values) -> tuple[str, str, list[float], bool] | None:
        """The trace entry a line's worked value lands on (a sum of exponentials, a dot product, 5/1.41 ≈ 3.54),
        among row sums, scores and outputs; None if none is within what its terms' rounding allows."""
        # a sum of exponentials or a dot product: the entry whose value it lands on
        face = next((f for _, p, f in values if f is not None and nb.plain_number(p.expr) is None), None)
        first = next((p.expr for _, p, f in values if f is not None and nb.plain_number(p.expr) is None), None)
        # e^{10} = 22,026: one exponential is no sum of them (it lay within 0.02% of the row sum e^{10} + e^0 +
        # e^{-5}, and was judged as that sum)
        lone_exp = first is not None and "exp" in _ops(first) and not _has_sum(first)
        if face is not None and math.isfinite(face) and abs(face) > 1e-6:
            near = []
            # 5/1.41 ≈ 3.54: with its rounded constant taken as the rounding it is, the line lands on 5/√2
            expr = next(p.expr for _, p, f in values if f is not None and nb.plain_number(p.expr) is None)
            span = rounded_terms(expr)
            iv = span if "≈" in c.rels else None
            slack = max(2e-4 * abs(face), 2e-4, (iv.hi - iv.lo) / 2 if iv is not None else 0.0)
            # (and within what its terms' rounding allows: 0.3333 × 0.9007 = 0.3002 is 1/3 of 0.900717, 0.30024,
            # not an entry of 0.300384 that near-uniform weights happen to give)
            for v in self.vs.views:
                if v.node in ("row_sum", "QKt", "S", "O", "Y", "O_concat") and (v.b or 0) == 0 and \
                        not (lone_exp and v.node == "row_sum"):
                    d = np.abs(v.M - face)
                    if span is not None and math.isfinite(span.lo) and math.isfinite(span.hi):
                        room = 1e-9 * max(1.0, abs(face))
                        d = np.where((v.M >= span.lo - room) & (v.M <= span.hi + room), d, np.inf)
                    if np.isfinite(d).any() and np.nanmin(d) <= slack:
                        near.append((float(np.nanmin(d)), v, int(np.nanargmin(d))))
            if near:
                rank = {"row_sum": 0, "QKt": 1, "S": 2, "O": 3, "O_concat": 4, "Y": 5}
                d, v, k = min(near, key=lambda x: (round(x[0], 12), rank.get(x[1].node, 9)))
                x = float(v.M.reshape(-1)[k])
                band = float(np.asarray(v.band).reshape(-1)[k]) if isinstance(v.band, np.ndarray) else float(v.band)
                return (lb.SHOWN.get(v.node, v.node), self.step_of(v.node), [_E(x, band)], True)
        return None

    def entry(self, ref: lb.Ref, c: Chain) -> tuple[str, str, list[float], bool] | None:
        """A scalar label: α_{21}, q_1·k_2, m_1, Σ... as (name, step, the exact values it may stand for)."""
        node = ref.nodes[0]
        fam = _family(ref)
        head = ref.head if ref.head is not None else _ctx_head(c.context)
        if ref.row is None and ref.col is not None and node in ("QKt", "S", "A", "E"):
            ref = self._one_query_row(ref, fam, head)
        elif ref.row is not None and ref.col is None and node in ("QKt", "S", "A", "E"):
            # α₃ = 0.471 where one query meets three keys: the third key's weight (there is no third query)
            one = self._one_query_row(replace(ref, row=None, col=ref.row), fam, head)
            ref = one if one.row == 0 else ref
        if ref.row is not None and ref.col is not None:
            vals, step = [], None
            ordered = sorted(self.vs.views, key=lambda v: (ref.nodes.index(v.node) if v.node in ref.nodes else 9,
                                                           v.node == "O_concat" and self.t.config.n_heads == 1))
            for v in ordered:
                if v.node in fam and (head is None or v.h is None or v.h == head) and (v.b or 0) == 0:
                    if 0 <= ref.row < v.M.shape[0] and 0 <= ref.col < v.M.shape[1]:   # not a cached row
                        vals.append(_E(v.M[ref.row, ref.col], _band(v, ref.row, ref.col)))
                        step = step or self.step_of(v.node)
            if vals:
                return (ref.show(), step, vals, True)
        if node == "row_sum" and ref.row is None and ref.col is None and not _row_said(c):
            listed = _exps_listed_before(self.objs, c)
            if listed is not None:          # "After exp(): [1.11, 2.23, 3.32]" then "Sum: 6.66": their total, or
                listed[2].extend(_E(float(x), float(np.max(v.band)) if isinstance(v.band, np.ndarray) else
                                    float(v.band)) for v in self.vs.views if v.node == "row_sum" and
                                 (v.b or 0) == 0 for x in v.M.reshape(-1) if np.isfinite(x))
                return listed               # the exact total (a slipped exponential summed right is no sum's slip)
        said = _row_said(c)
        if node in ("row_max", "row_sum") and ref.row is None and said:
            # "Softmax row 3. 4.1133, 4.1133, e^0 = 1; sum = 9.2265": the line's own words say which row it sums
            named = int(said.group(1) or said.group(2))
            ref = replace(ref, row=named - self._row_base(named) - self.inf.bases.query)
        if node in ("row_max", "row_sum", "D") and (ref.row is not None or c.context.row is not None):
            r = ref.row if ref.row is not None else \
                c.context.row - self._row_base(c.context.row) - self.inf.bases.query
            vals = []
            for v in self.vs.views:
                if v.node == node and (head is None or v.h == head) and (v.b or 0) == 0 and 0 <= r < v.M.shape[1]:
                    vals.append(_E(v.M[0, r], _band(v, 0, r)))
            if vals and node == "row_sum" and not _names_exponentials(c):
                vals.append(_E(1.0, 1e-9))       # "Row 2 sum: 1.0" printed beside the weights: their row sums to 1
            if vals:                         # D_i = Σ_j dA_ij A_ij: the softmax backward (gradients.py)
                return (ref.show(), lb.STEP["D"] if node == "D" else "softmax", vals, True)
        if ref.row is None and ref.col is None and node in ("row_sum", "row_max", "QKt", "S", "A", "E"):
            # a single number named only by a word ("sum 22.03", "the score is 0.27"): any entry of that name;
            # a finding only when it is near one of them (see judge_arith)
            vals = [_E(x, float(np.max(v.band)) if isinstance(v.band, np.ndarray) else float(v.band))
                    for v in self.vs.views if v.node in fam
                    and (head is None or v.h is None or v.h == head) for x in v.M.reshape(-1) if np.isfinite(x)]
            if vals:
                return (ref.show(), self.step_of(node), vals, False)
        return None

    def exp_decimals(self, c: Chain) -> int | None:
        """The decimals of the exponentials printed one equation each (`e^{0.71} ≈ 2.03`) on the line, else on the
        nearest of the two lines above it (`e^{2.56} = 12.94, e^{1.90} = 6.69, ...` over `sum = 26.99`); None if
        none."""
        for line in (c.place.line, c.place.line - 1, c.place.line - 2):
            printed = [x.parts[1].expr.num for x in self.doc.chains if x.place.cell == c.place.cell and
                       x.place.line == line and len(x.parts) == 2 and
                       isinstance(getattr(x.parts[0], "expr", None), nb.Op) and x.parts[0].expr.op == "exp" and
                       isinstance(getattr(x.parts[1], "expr", None), nb.Lit)]
            d = max((n.decimals for n in printed if n.decimals is not None), default=None)
            if d is not None:
                return d
        return None

    def _row_base(self, named: int) -> int:
        """The number of the first row in the prose: 0 where it says "row 0", on this line or any other ("Row 0 (cat)
        ... Row 2 (on): sum = 3" sums the third row); else 1 (a prose "row 2" stays the second row, even in a
        notebook whose code counts from 0: "Row 2 sum" over `attn_weights[1]`)."""
        if named == 0:
            return 0
        if getattr(self, "_rows_from_zero", None) is None:
            said = [c.text or "" for c in self.doc.chains] + [a.label or "" for a in self.doc.arrays]
            self._rows_from_zero = any(_row_zero(t) for t in said)
        return 0 if self._rows_from_zero else 1

    def _one_query_row(self, ref: lb.Ref, fam: set, head: int | None) -> lb.Ref:
        """q · k_2 with no query index: row 1 when the example has one query, else (left unidentified) no row."""
        rows = {v.M.shape[0] for v in self.vs.views if v.node in fam and (head is None or v.h is None or v.h == head)
                and (v.b or 0) == 0}
        return replace(ref, row=0) if rows == {1} else ref

    def dot_product(self, e, c: Chain) -> tuple[str, str, float | None, bool] | None:
        """Σ a_k b_k: the entry of Q Kᵀ, A V, X W or O_concat W_O whose factors it multiplies."""
        terms = nb.terms_of(e)
        if len(terms) < 2 or len(terms) > 64:
            return None
        pairs = []
        for t in terms:
            fs = nb.factors_of(t)
            vals = []
            for f in fs:
                try:
                    vals.append(nb.evaluate(f))
                except (ArithmeticError, OverflowError, ValueError):
                    return None
            pairs.append(vals)
        n = len(pairs)
        t, cfg = self.t, self.t.config
        fams = []
        for b in range(cfg.B):
            for h in range(cfg.n_heads):
                hd = t.head(h, b)
                fams.append(("QKt", b, h, hd["Q"], hd["K"].T, "scores"))
                fams.append(("O", b, h, hd["A"], hd["V"], "weighted_sum"))
            if cfg.X is not None:
                for name, W in (("Q", cfg.W_Q), ("K", cfg.W_K), ("V", cfg.W_V)):
                    if cfg.key is None:
                        fams.append((name, b, None, cfg.X[b], W, "projection"))
            if cfg.W_O is not None:
                fams.append(("Y", b, None, t.O_concat[b], cfg.W_O, "output"))
        best = None
        for node, b, h, L, R, step in fams:
            if L.shape[1] != n:
                continue
            for i in range(L.shape[0]):
                for j in range(R.shape[1]):
                    score = 0
                    for k, fs in enumerate(pairs):
                        a, bb = float(L[i, k]), float(R[k, j])
                        if len(fs) == 2:
                            # identification only: one unit of slack (printed inputs may be rounded)
                            def near(f, x):
                                return abs(f.value - x) <= 2 * f.half + 1e-9
                            if (near(fs[0], a) and near(fs[1], bb)) or (near(fs[1], a) and near(fs[0], bb)):
                                score += 1
                        elif len(fs) == 1:
                            p = a * bb
                            if fs[0].lo - 1e-6 <= p <= fs[0].hi + 1e-6 or abs(fs[0].value - p) <= max(fs[0].half * 2, 1e-9):
                                score += 1
                    if score >= max(2, n - 1) and (best is None or score > best[0]):
                        best = (score, node, b, h, i, j, step, float(L[i] @ R[:, j]))
        if best is None:
            return None
        score, node, b, h, i, j, step, exact = best
        name = f"{lb.SHOWN.get(node, node)}" + (f"^({h + 1})" if h is not None else "") + f"[{i + 1},{j + 1}]"
        step = self.step_of(node)
        band = 0.0
        for v in self.vs.get(node, b, h):
            if 0 <= i < v.M.shape[0] and 0 <= j < v.M.shape[1]:
                exact, band = float(v.M[i, j]), _band(v, i, j)
                break
        return (name, step, [_E(exact, band)], True)


def _exps_listed_before(objs: list, c: Chain) -> tuple[str, str, list[float], bool] | None:
    """A sum named on its own line just under one row of exponentials printed whole (`After exp(): [..]` over
    `Sum: 10.61`): the total of those printed numbers, within their rounding, as the target.  A sum on a line that
    prints a row of its own (`softmax = [0.659, 0.242, 0.099] → Σ = 1.000`) is that row's."""
    if any(o.a.place.cell == c.place.cell and o.a.line == c.place.line and o.val is not None and o.val.size >= 2
           for o in objs):
        return None
    for o in objs:
        a = o.a
        if a.place.cell != c.place.cell or not 0 < c.place.line - a.line <= 2 or o.ref is None or \
                "E" not in o.ref.nodes or len(a.rows) != 1 or not a.rows[0] or len(a.rows[0]) < 2 or \
                any(n is None or not math.isfinite(n.value) or n.value <= 0 for n in a.rows[0]):
            continue
        total = sum(n.value for n in a.rows[0])
        return (f"the sum of the exponentials on line {a.line}", "softmax",
                [_E(total, sum(n.half for n in a.rows[0]))], True)
    return None


class _E(float):
    """An exact value with the band the rounding of printed inputs allows around it."""
    def __new__(cls, x: float, band: float = 0.0):
        obj = super().__new__(cls, float(x))
        obj.band = float(band)
        return obj


def _names_exponentials(c: Chain) -> bool:
    """Does the line say its sum is of the exponentials (the softmax denominator), not of the weights?"""
    return bool(re.search(r"exp|e\\^|denominator|分母|指数|normali[sz]er|partition|\\ell|ℓ", c.text, re.I))


def _ctx_head(ctx) -> int | None:
    return ctx.head - 1 if ctx.head is not None else None


def _near(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y))


def _arith_step(values) -> str | None:
    """The step of an arithmetic line that names no quantity, from what it computes: √d_k, e^x, a softmax."""
    ops = set()
    for _, p, _ in values:
        ops |= _ops(p.expr)
    if ops & {"cos", "sin"}:
        return "position"        # a sinusoidal encoding or a rotation's angle: the position's step, whichever
    if "exp" in ops:
        return "softmax"
    if ops == {"sqrt"} or ops == {"sqrt", "/"} and len(values) <= 3:
        return "scale"
    return None


_SIZE_WORD = re.compile(r"(?<![A-Za-z])(?:" + SIZE_UNITS + r"|params|parameters)(?![A-Za-z])")


def size_step(text: str) -> str | None:
    """The step of a line of arithmetic that works out a size (bytes, FLOPs, parameters: a KV cache's "≈ 8.6 GB"),
    not a value of the attention: "size"."""
    return "size" if _SIZE_WORD.search(text or "") else None


def _has_sum(e) -> bool:
    return isinstance(e, nb.Op) and (e.op == "+" or any(_has_sum(a) for a in e.args))


def _ops(e) -> set[str]:
    if isinstance(e, nb.Op):
        out = {e.op} if e.op not in ("+", "*", "neg") else set()
        for a in e.args:
            out |= _ops(a)
        return out
    return set()


_ROW_ZERO = re.compile(r"(?i)\brow\s*0\b(?![.,]\d)|第\s*0\s*行")
# "take `W_Q` row 0 + `W_Q` row 2": a row of a weight matrix, counted as its code counts, says nothing of how the
# prose counts the rows of the scores and weights
_OF_A_WEIGHT = re.compile(r"W_?\^?\{?[QKVOqkvo]\}?[`*]*\s*$")


def _row_zero(text: str) -> bool:
    return any(not _OF_A_WEIGHT.search(text[max(0, m.start() - 12):m.start()]) for m in _ROW_ZERO.finditer(text))


def _row_said(c: Chain) -> re.Match | None:
    """The row the line's own words name for its number: the mention nearest before the number ("Masked row 1 has
    ... Row 3 has ... sum 11.107" sums row 3); where the number is past the text kept, the row the reader named
    before it (its context), else the line's first mention."""
    text = c.text or ""
    found = list(re.finditer(r"(?i)\brow\s*(\d{1,2})\b|第\s*(\d{1,2})\s*行", text))
    last = c.parts[-1] if c.parts else None
    n = getattr(last, "expr", None)
    at = -1
    if n is not None and hasattr(n, "num"):
        at = text.find(n.num.text)
        while at >= 0 and text.find(n.num.text, at + 1) >= 0 and len(found) and found[-1].start() > at:
            at = text.find(n.num.text, at + 1)
    if at < 0:
        return None if c.context.row is not None else (found[0] if found else None)   # (the line cut at 120)
    before = [m for m in found if m.end() <= at]
    return before[-1] if before else (found[0] if found else None)
