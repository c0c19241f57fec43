"""A weighted sum of the values written out, o_i = Σ_j a_ij v_j (`0.4011·[1, 0] + ...`, `0.4011 v_1 + ...`): its
row of A found by its name or its weights and values, each weight judged where most of them are that row's, each
value vector where V is given (or every entry of it but one bears an assumed W_V out), and a weight quoted from an
earlier line found off, or worked there from rounded values, noted as following from it."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from .. import numbers as nb
from ..infer import Hit
from ..objects import Chain, ExprPart, LabelPart
from ..report import Finding
from .common import _band, _simple_cause, _simple_kind
from .identity import identified

QUOTE_SPAN = 25         # lines from a row of weights found wrong to the weighted sum that quotes it


class WeightedJudging:
    """Judge methods for weighted sums of the values."""

    def _row_found_before(self, weights: list[str], line: int, cell: int | None) -> int | None:
        """The line, at most QUOTE_SPAN lines before (same cell), of a row of attention weights found wrong whose
        printed numbers are these weights in this order (`[0.42, 0.16, 0.42]` found unscaled, then
        `0.42·v1 + 0.16·v2 + 0.42·v3`): the sum quotes that row.  None when no such row was found wrong."""
        for f in self.findings:
            if f.severity == "error" and f.step == "softmax" and f.cell == cell and 0 < line - f.line <= QUOTE_SPAN \
                    and re.findall(r"-?\d+\.\d+", f.printed) == weights:
                return f.line
        return None

    def _weight_found_before(self, text: str, line: int, cell: int | None) -> int | None:
        """The line, at most QUOTE_SPAN lines before, of a single weight already found off (an error, or a note on
        its rounding) and printed as this text ("weight on token 1: ... ≈ 0.6697", then "0.6697 * [1, 2] + ...")."""
        for f in self.findings:
            if f.step == "softmax" and f.cell == cell and 0 < line - f.line <= QUOTE_SPAN and f.printed == text:
                return f.line
        return None

    def _weight_worked_before(self, w: nb.Num, exact: float, line: int, cell: int | None,
                              span: int = QUOTE_SPAN) -> int | None:
        """The line, at most QUOTE_SPAN lines before (same cell), where this weight is the result of the document's
        own arithmetic on rounded values ("1.761/4.453 = 0.395"), which gives it to its printed digits, though the
        exact weight (0.3955) rounds the other way: the sum quotes that result.  Only a rounding away (one unit of
        its last digit from the exact weight); None when no such line is there."""
        if w.decimals is None or abs(w.value - exact) > 3 * w.half:
            return None
        for x in self.doc.chains:
            if x.place.cell != cell or not 0 < line - x.place.line <= span or len(x.parts) < 2:
                continue
            last, before = x.parts[-1], x.parts[-2]
            if not (isinstance(last, ExprPart) and isinstance(before, ExprPart)):
                continue
            got = nb.plain_number(last.expr)
            if got is None or got.text != w.text or nb.plain_number(before.expr) is not None or \
                    nb.has_symbols(before.expr) or not _a_share(before.expr):
                continue
            try:
                face = nb.face(before.expr)
            except (ArithmeticError, OverflowError, ValueError):
                continue
            if abs(face - w.value) <= w.half * (1 + 1e-9):
                return x.place.line
        return None

    def judge_weighted(self, c: Chain, e) -> bool:
        """o_i = Σ_j a_ij v_j, written with vectors (0.4011[1, 0] + ...) or symbols (0.4011 v_1 + ...)."""
        pairs = self._weighted_pairs(e)
        if pairs is None or len(pairs) < 2 or self.t is None or not self.vs.get("A", 0, None) or \
                not self.vs.get("Vh", 0, None):
            return False                          # a start with no V (infer/starts.py): nothing to weigh
        row = self._weighted_row(c, pairs)
        if row is None:
            return False
        h, i = self._row_by_weights(pairs, *row)
        self.n_claims += 1
        hd = self.t.head(h)
        A, V = hd["A"], hd["V"]
        vv = self.vs.get("Vh", 0, h)[0]
        origin = self._row_found_before([w.text for w, _, _ in pairs], c.place.line, c.place.cell)
        # the weights are judged one by one only where most of them are this row's (identity before verdict): a
        # row of weights none of which is the row's is another example's (the same tokens, unscaled), not slips
        w_ok = sum(w.contains(float(A[i, k if j is None else j])) for k, (w, _, j) in enumerate(pairs)
                   if (k if j is None else j) < A.shape[1])
        weights_identified = identified(w_ok, len(pairs)) or origin is not None or any(
            self._weight_found_before(w.text, c.place.line, c.place.cell) is not None for w, _, _ in pairs)
        values_judged = self._values_borne_out(pairs, V)
        for k, (w, vec, j) in enumerate(pairs):
            jj = k if j is None else j
            if jj >= A.shape[1]:
                continue
            self.n_numbers += 1
            if weights_identified:
                self._judge_weight(c, h, i, jj, w, origin)
            if vec is not None and len(vec.cells) == V.shape[1] and values_judged and \
                    not self.doc.in_opened_section(c.place):
                # (an exercise's section may give its own value rows: "change the third value row to [1, 4]")
                for d, (cell, y) in enumerate(zip(vec.cells, V[jj])):
                    self.n_numbers += 1
                    if not cell.contains(float(y), _band(vv, jj, d) if vv.M.shape == V.shape else 0.0):
                        self.add(Finding(cell.line or c.place.line, c.place.cell,
                                         f"v^({h + 1})_{jj + 1}[{d + 1}] in {c.text[:60]}", cell.text, float(y),
                                         cell.rounded(float(y)), "weighted_sum", _simple_cause(cell, float(y)),
                                         _simple_kind(cell, float(y))))
        return True

    def _values_borne_out(self, pairs: list, V: np.ndarray) -> bool:
        """May the value vectors written into a weighted sum be judged against V?  When W_V was assumed to be I (the
        document prints no W_V), they may only where they bear the assumption out: every entry but one is V's (a
        slip is one entry); two or more entries off say the page's values come from a W_V it did not print."""
        dims = self.inf.best.cand.dims
        if "W_V" not in dims or "(assumed)" not in dims["W_V"].label:
            return True
        off = sum(not x.contains(float(y)) for k, (_, vec, j) in enumerate(pairs) if vec is not None and
                  (k if j is None else j) < V.shape[0] and len(vec.cells) == V.shape[1]
                  for x, y in zip(vec.cells, V[k if j is None else j]))
        return off <= 1

    def _weighted_pairs(self, e) -> list | None:
        """The (weight, value vector or None, value row or None) of each term of a weighted sum, or None when a
        term is not a number times a vector or a value's symbol."""
        pairs = []
        for t in nb.terms_of(e):
            fs = nb.factors_of(t)
            w = next((nb.plain_number(f) for f in fs if nb.plain_number(f) is not None), None)
            vec = next((f for f in fs if isinstance(f, nb.Vec)), None)
            sym = next((f for f in fs if isinstance(f, nb.Sym)), None)
            if w is None or (vec is None and sym is None) or len(fs) != 2:
                return None
            j = None
            if sym is not None:
                r = self.inf.bases.label(sym.text)
                if r is None or r.row is None or not ({"V", "Vh"} & set(r.nodes)):
                    return None
                j = r.row
            pairs.append((w, vec, j))
        return pairs

    def _weighted_row(self, c: Chain, pairs: list) -> tuple[int, int] | None:
        """The (head, row) of A a weighted sum is the output of: named by its label, or identified by its printed
        weights and values; None when neither holds."""
        ref = next((self.inf.bases.label(p.text) for p in c.parts if isinstance(p, LabelPart)
                    and self.inf.bases.label(p.text) is not None), None)
        if ref is not None and ref.strong and not ({"O", "O_concat", "Y"} & set(ref.nodes)):
            # "Q₀ = x₀ W_Q = 1 × [1, 0] + 0 × [0, 1]": a row of the projection, not a sum of values
            return None
        if (ref is None or not ref.strong) and all(w.value in (0.0, 1.0) for w, _, _ in pairs):
            return None      # weights of 0 and 1 under no name: an input row times a matrix's rows, as likely
        t = self.t
        if ref is not None and ref.row is None and ref.raw_head is not None and t.config.n_heads == 1:
            # "output_1 = 0.67·v1 + 0.33·v2" with one head: the index is the token's (as v1, v2 are), not a head's
            ref = replace(ref, row=ref.raw_head - self.inf.bases.row, head=None)
        cands = []
        for h in range(t.config.n_heads):
            hd = t.head(h)
            A, V = hd["A"], hd["V"]
            if A.shape[1] < len(pairs):
                continue
            for i in range(A.shape[0]):
                if ref is not None and ((ref.row is not None and ref.row != i) or
                                        (ref.head is not None and ref.head != h)):
                    continue
                score = 0
                for k, (w, vec, j) in enumerate(pairs):
                    jj = k if j is None else j
                    if jj >= A.shape[1]:
                        break
                    score += w.contains(float(A[i, jj]))
                    if vec is not None and len(vec.cells) == V.shape[1]:
                        score += all(x.contains(float(y)) for x, y in zip(vec.cells, V[jj]))
                cands.append((score, h, i))
        if not cands:
            return None
        score, h, i = max(cands)
        if sum(1 for c in cands if c[0] == score) > 1 and (ref is None or ref.row is None):
            return None                           # rows tied on the printed numbers: none is identified
        n_items = len(pairs) + sum(v is not None for _, v, _ in pairs)
        if (ref is None or ref.row is None and ref.head is None) and score < max(2, n_items - 1):
            return None                           # "output = ..." names no row: the row is identified by value only
        if score < max(2, n_items // 2):
            # "output_1 = 0.332·[...] + ..." with none of its weights or values the example's: the name alone does
            # not make it row 1 (another example)
            return None
        return h, i

    def _judge_weight(self, c: Chain, h: int, i: int, jj: int, w, origin: int | None) -> None:
        """One weight of an identified weighted sum, held to A[i, jj]: a finding, a note when the document's own
        earlier line gives it, or nothing."""
        x = float(self.t.head(h)["A"][i, jj])
        av = self.vs.get("A", 0, h)[0]
        if w.contains(x, _band(av, i, jj)):
            return
        what = f"A^({h + 1})[{i + 1},{jj + 1}] in {c.text[:60]}"
        hit = Hit(av, "full", None, np.zeros((1, 1), bool), self.t.head(h)["A"])
        note = self.rounded_predecessor(hit, i, jj, w, c.place)
        if note is not None:             # the weight as the document printed it a step before
            self.add(Finding(w.line or c.place.line, c.place.cell, what, w.text, x, w.rounded(x), "weighted_sum",
                             note, "rounded_sum", "note"))
            return
        quoted = origin if origin is not None else self._weight_found_before(w.text, c.place.line, c.place.cell)
        if quoted is not None:             # the weight of an earlier line found off, quoted: one slip
            self.add(Finding(w.line or c.place.line, c.place.cell, what, w.text, x, w.rounded(x), "weighted_sum",
                             f"follows from line {quoted}: the weight found off there, quoted", "carried", "note"))
            return
        worked = self._weight_worked_before(w, x, c.place.line, c.place.cell)
        if worked is not None:             # the weight as worked, from rounded values, on an earlier line
            self.add(Finding(w.line or c.place.line, c.place.cell, what, w.text, x, w.rounded(x), "weighted_sum",
                             f"the weight worked on line {worked} from the rounded values printed there, quoted",
                             "rounded_sum", "note"))
            return
        cause, kind = self.cell_cause(hit, i, jj, w, None)
        self.add(Finding(w.line or c.place.line, c.place.cell, what, w.text, x, w.rounded(x), "weighted_sum", cause,
                         kind))

    def _row_by_weights(self, pairs: list, h: int, i: int) -> tuple[int, int]:
        """The row the name gave (h, i), unless most of its weights are not that row's and every one of them is
        another row's: then the name was read with another convention than the author's (o_{1,2} for head 1's
        second row, read as row 1), and the weights identify the row."""
        def fits(hh: int, ii: int) -> int:
            A = self.t.head(hh)["A"]
            return sum(w.contains(float(A[ii, k if j is None else j])) for k, (w, _, j) in enumerate(pairs)
                       if (k if j is None else j) < A.shape[1])
        if 2 * fits(h, i) >= len(pairs):
            return h, i
        full = [(hh, ii) for hh in range(self.t.config.n_heads) for ii in range(self.t.head(hh)["A"].shape[0])
                if self.t.head(hh)["A"].shape[1] >= len(pairs) and fits(hh, ii) == len(pairs)]
        same_head = [x for x in full if x[0] == h]
        if len(same_head) == 1:
            return same_head[0]
        return full[0] if len(full) == 1 else (h, i)


def _a_share(e) -> bool:
    """Arithmetic that can work out a weight: a quotient (`1.761/4.453`) or one with exponentials in it.  A sum of
    products (`0.30 + 0.12 = 0.42`, a dot product) that happens to end in a weight's digits is another quantity."""
    if isinstance(e, nb.Op) and e.op == "/":
        return True
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, nb.Op):
            if x.op == "exp":
                return True
            stack.extend(a for a in x.args if isinstance(a, nb.Op))
    return False


WORKED_SPAN = 120      # lines from a weight worked out from rounded values to a bare copy of it


def worked_copies(j) -> None:
    """A weight found a unit off, printed bare (a table column, a recap list) where the document worked the same
    digits out before from its rounded exponentials and sum (`1.13 / 10.22 = 0.111`, the exact weight 0.1104): the
    copy repeats that working, a note, as the working itself is."""
    for f in j.findings:
        if f.severity != "error" or f.step != "softmax" or not isinstance(f.exact, float):
            continue
        try:
            w = nb.Num.parse(f.printed, f.line)
        except ValueError:
            continue
        at = j._weight_worked_before(w, f.exact, f.line, f.cell, WORKED_SPAN)
        if at is not None:
            f.severity, f.kind = "note", "rounded_sum"
            f.cause = f"the same value as worked out on line {at} from the rounded values before it"
