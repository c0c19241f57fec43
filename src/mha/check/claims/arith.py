"""The arithmetic claim: an equation chain (lhs = t1 = t2 ≈ t3), each printed value checked against the expression
before it at face value (interval arithmetic over the printed terms), then its result against the entry of the
trace it computes (target.py).  A scalar chain (α_12 = 0.41, "the score is 0.27") is an arithmetic claim too."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from .. import labels as lb
from .. import labelwords as lw
from .. import numbers as nb
from ..numbers import Num
from ..infer.prepare import other_layer
from ..objects import Chain, ExprPart, LabelPart
from ..report import Finding
from .addends import PrintedAddends
from .common import _chain_text, _simple_cause, _simple_kind, shape_notes, spelled
from .conventions import scaled_after, spread_reading, total_of_listed
from .roundedexps import exact_sum_of_rounded_exps, exp_of_neither, printed_before
from .rounding import amplified_products, products_of_rounded, rounded_addends
from .rates import judge_quotients, judge_rates
from .sizeunits import judge_sizes, unit_of
from .setequal import (after_a_group, bare_run, binary_magnitude, counted_in_words, cut_at_a_group, dotted_thousands,
                       far_apart, first_term, floored_count, grouped_divisor, hyphen_range, in_bits, in_larger_unit,
                       in_time_unit, nearer, negations, sci_apart, split_into, thousands_point, tilde_between,
                       total_worked_elsewhere, two_givens, whole_quotients, written_time, written_unit)
from .target import _arith_step, _ops, size_step
from .arithterms import (
    FLOAT32_MAX, at_precision, carried_root, cut_down, cut_off, decimal_literal, exact_aside, has_vector, in_degrees,
    within_print, one_product, product_of_short_factors, rounded_terms_allow, rounded_twice, same_value,
    speaks_for, unit_dropped, whole_count, within_addends)


@dataclass
class ArithClaim:
    chain: Chain


# the same function on both sides of an equals sign, called on numbers: s(-1.0) = -s(1.0), f(2) = f(-2)
_RATIO = re.compile(r"(?<![\w.])[-−]?\d+\.\d+\s*:\s*[-−]?\d+\.\d+(?![\d.])")
_SAME_CALL = re.compile(r"(?<![\w\\])([A-Za-z]\w{0,5})\([-−]?[\d.]+\)=[-−+]?\1\([-−]?[\d.]+\)")
_RATIOS_LISTED = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*:\s*\d+(?:\.\d+)?\s*/\s*\d+(?:\.\d+)?\s*:\s*\d+")
_SHAPE_TUPLES = re.compile(r"(?:\(\d+(?:[*×x]\d+)+\))+")


# a product whose last factor is a name given its value on the spot: "8 heads × d_head" before "= 64 = 512"
_UNREAD_SUM = re.compile(r"\d\s*[-+*/×·x]\s*\d")


_LOG = re.compile(r"(?<![A-Za-z])(?:log|ln)\b|\\log|\\ln")
_NAMED_FACTOR = re.compile(r"[×*·]\s*[A-Za-z_]\w*\s*$")


_UNIT_AT_END = re.compile(r"(?<![A-Za-z])((?:[kKMGTP]i?)?(?:bits?|bytes?|B|b))\s*[.,;]?\s*$")


# `m_1 = max(-∞, 2) = 2`: the running maximum of an online softmax, started at -∞: no entry of the configuration
_RUNNING_MAX = re.compile(r"max\s*\(\s*(?:-|−)\s*(?:∞|\\infty|inf)")
_COUNT_WORD = re.compile(r"\d\s*(?:[A-Za-z]{2,}|[\u4e00-\u9fff]+)\s*[.,;]?\s*$|"
                         # (or counts named among the factors: `32 layers × 8 batch × 150 × 3000 ≈ 0.46 GB`)
                         r"\d\s*(?:layers?|batch(?:es)?|tokens?|heads?|frames?|seq(?:uences?)?|dims?)\b\s*[×*x·]",
                         re.I)


# a time of day (`08:00`, `9:30:15`): its colon is no relation
_CLOCK = re.compile(r"(?<![\d.:])\d{1,2}:\d{2}(?::\d{2})?(?![\d.:])")


def _an_estimate(n: Num) -> bool:
    """A number written in powers of ten to two figures or fewer (`16e9`, `1.6 × 10^{10}`): how counts are estimated
    (`796 k` for 786,432, a count of thousands, is no estimate but a slip)."""
    return bool(re.search(r"[eE][-+]?\d+$|×10\^", n.text)) and (nb.significant_digits(n) or 0) <= 2


def _ordered_whole(left, right) -> bool:
    """Two whole numbers, the first below the second: the ends of a range when a tilde stands between them."""
    a, b = nb.plain_number(left), nb.plain_number(right)
    return a is not None and b is not None and a.decimals is None and b.decimals is None and a.value < b.value


def _unit_word(text: str) -> str | None:
    """The unit of size a part ends with (`64 bits`, `8 bytes`, `3.2 GB`), singular, else None."""
    m = _UNIT_AT_END.search(text or "")
    return m.group(1).rstrip("s") if m and re.search(r"\d\s*" + re.escape(m.group(1)), text) else None


class ArithJudging(PrintedAddends):
    """Judge methods for ArithClaim."""

    def judge_arith(self, c: Chain) -> None:
        if c.context.dropout:
            return
        if re.search(r"[?\ufffd]\s*\d", c.text):
            return              # "? = ?5.25 = 2.29": a symbol the text lost (σ, √), not a number to read
        if lw.index_header(c.text):
            return              # "j=0  j=1  j=2": a header of column indices over a drawn matrix, not arithmetic
        if c.parts and isinstance(c.parts[0], ExprPart) and re.match(r"\s*[+×*/÷·]", c.parts[0].text) and \
                len(nb.terms_of(c.parts[0].expr)) >= 2:
            # "+(0×1)+(0×0)+(1×1) = 4": the last line of a sum begun on the lines above it ("+ 0.25 × 1.84 = 0.46",
            # one term, is a term of a sum written down a column, and its own arithmetic)
            return
        if _SAME_CALL.search(c.text.replace(" ", "")):
            return              # "s(-1.0) = -s(1.0)": a property of a function, no number to work out
        if _RATIO.search(_chain_text(c)):
            return              # "re-normalised from 0.5035 : 0.2483": a ratio of two numbers, not a label and its value
        if _RATIOS_LISTED.search(c.text):
            return              # "Ratio 2:1 / 4:1 / 8:1", "10:30 / 11:45": ratios (or times) side by side, no division
        if shape_notes(c.text) or split_into(c):
            return              # "[100*100] * [100*64] = [100 * 64]": sizes in brackets, products of shapes, no numbers;
            #                     "64 × 64 → 64 windows of 8 × 8": a grid mapped to a count, no equality
        if "→" in c.rels and all(isinstance(p, ExprPart) and _SHAPE_TUPLES.fullmatch(p.text.replace(" ", ""))
                                 for p in c.parts):
            return              # "(3×5×4) → (5×3×4) → (5×12)": shapes through a transpose and a reshape, no equality
        cut = next((k + 1 for k, r in enumerate(c.rels) if r == "→" and k + 1 < len(c.parts)
                    and isinstance(c.parts[k + 1], LabelPart) and isinstance(c.parts[k], ExprPart)), None)
        if cut is not None:          # "Gini = 0.5 → maximal impurity (50/50)": what follows the arrow is a remark
            c = Chain(c.parts[:cut], c.rels[:cut - 1], c.place, c.text, c.context)
            if not any(isinstance(p, ExprPart) for p in c.parts):
                return
        self._judge_arith(c)

    _degrees = False
    _approx_line = False       # the chain says ≈ somewhere (h ≈ 0.50·2 + 0.41·4 = 2.63)

    def _judge_arith(self, c: Chain) -> None:
        """An equation chain: each printed value against the expression before it, then against the trace.

        A careful reader takes the printed terms at face value: "1.5/√2 ≈ 1.0607" is checked with 1.5 as
        written.  One unit of the last digit is allowed when the terms are themselves rounded at the
        result's precision (three rounded terms add up to ±1.5 units) and the line names no quantity
        whose exact value decides.
        """
        sizes = judge_sizes(self, c) + judge_rates(self, c) + judge_quotients(self, c)
        nums = [(k, p) for k, p in enumerate(c.parts) if isinstance(p, ExprPart)]
        if not nums:
            self.n_claims += bool(sizes)        # `4 × 536MB = 2144MB`: sizes alone, left as words, are a claim
            return
        self._degrees = "°" in c.text or bool(re.search(r"\bdeg(?:rees?)?\b", c.text))
        self._approx_line = "≈" in c.rels
        for k, p in nums:
            if nb.has_symbols(p.expr) and self.judge_weighted(c, p.expr):
                break
        values = []
        for k, p in nums:
            face = None
            if not nb.has_symbols(p.expr) or nb.vector_dot(p.expr):
                try:
                    face = nb.face(p.expr)
                except (ArithmeticError, OverflowError, ValueError):
                    face = None
            values.append((k, p, face))
        target = self._line_target(c, values)
        exacts = target[2] if target else []
        identified = bool(exacts) and target[3]
        # (with no configuration a line of bare arithmetic is no step of attention's: "arithmetic")
        step = target[1] if target else (_arith_step(values) or size_step(c.text) or c.context.step or
                                         ("scores" if self.inf.best is not None else "arithmetic"))
        self.n_claims += 1
        last = len(values) - 1
        for idx, ((k1, p1, f1), (k2, p2, f2)) in enumerate(zip(values, values[1:])):
            if k2 != k1 + 1:
                continue
            rel = c.rels[k1] if k1 < len(c.rels) else "="
            if self._no_equation(c, values, k1, rel, p1, p2):
                continue
            bad = self.compare_parts(p1.expr, p2.expr, idx + 1 == last and identified, exacts,
                                     approx=rel == "≈" or c.context.approx or "≈" in c.rels[:k1])
            if bad is None:
                continue
            self.n_numbers += 1
            if bad is not True and self._step_slip(c, p1, *bad, rel, idx + 1 == last, identified, exacts, step):
                return
        self._judge_arith_result(c, values, target, exacts, step)

    def _line_target(self, c: Chain, values: list):
        """The entry of the trace a line computes (arith_target), or None where the line works no quantity of the
        configuration."""
        # under online softmax or tiles a line works a partial sum, a block's maximum: no quantity of the
        # configuration, so only its own arithmetic is judged (`l_2 = 1·e^(-1) + 1 = 1.3679`)
        target = None if c.context.partial or _RUNNING_MAX.search(c.text) else self.arith_target(c, values)
        if target and not self.in_span(c.place) and self.inf.best.cand.dims["mode"].value in ("scores", "weights") \
                and not (target[3] and self.after_span(c.place) and self.named_peers_hold(c)):
            target = None                         # after printed scores, a value far from the example is another's
            #                                       (one that names its entry, α_3 = 0.136, in the section after them
            #                                       among quotes that hold is the example's; `s₀=1.320` of an online
            #                                       softmax after the scores is a running sum, no score)
        return target

    def _no_equation(self, c: Chain, values: list, k1: int, rel: str, p1, p2) -> bool:
        """Two neighbouring parts of a line that the relation between them does not make an equation."""
        if rel == ":" and _CLOCK.search(self.doc.line_text(c.place, c.place.line) or c.context.before or ""):
            return True  # "08:00-09:00: Setup": times of day, no quotient or difference worked out
        if rel in ("→", ":") and nb.plain_number(p1.expr) is not None or \
                rel == ":" and nb.plain_number(p2.expr) is None:
            return True  # "0.64 → 0.90": a running total, a before and after: not an equality;
                         #   "formula at d = 24: 7152", "196 weights and 14 biases: 210": a colon
                         #   after a number opens what follows, it does not equate the two; nor does one
                         #   before a formula ("Donne 1/3: 67 / 3 ≈ 22": the share named, then worked)
        if rel == "=" and k1 > 0 and nb.plain_number(p1.expr) is not None and \
                _NAMED_FACTOR.search(getattr(c.parts[k1 - 1], "text", "") or ""):
            return True  # "8 heads × d_head=64 = 512": 64 is d_head's value, 512 the product's
        if sci_apart(p1.expr, p2.expr):
            return True  # "2.72e2≈7.39e−3≈0.050e5≈148.41", terms run together (e² ≈ 7.39, e⁵ ≈ 148.41):
                         #   two bare numbers orders of magnitude apart are no equation
        u1, u2 = _unit_word(getattr(p1, "text", "")), _unit_word(getattr(p2, "text", ""))
        if u1 and u2 and u1 != u2:
            return True  # "= 64 bits = 8 bytes", "= 8192 MB = 8 GB": the same size in another unit
        if rel in ("=", "≈") and unit_of(getattr(p1, "text", "")) and unit_of(getattr(p2, "text", "")) and \
                nb.plain_number(p1.expr) is not None:
            return True  # "≈ 38 MB" then "≈ 300 MB" (a total loosely rounded under its parts): two sizes, each
                         #   judged where it is worked out; a change of unit is judged by _judge_sizes
        if rel in ("=", "≈") and unit_of(getattr(p1, "text", "")) and nb.plain_number(p1.expr) is not None and \
                nb.plain_number(p2.expr) is not None and not unit_of(getattr(p2, "text", "")):
            return True  # "M = 192 KiB = 196608" 字节: the size in bytes, its unit in words after the formula
        if rel == "→" and re.search(r"(?i)\bflops?\b|\bops\b|operations?", getattr(p2, "text", "")):
            return True  # "3.14 × 2.71 → 1 FLOP": the operations a line costs, not its value
        if rel == "≈" and far_apart(p1.expr, p2.expr) and (
                not any(isinstance(p, ExprPart) for p in c.parts[:k1]) and
                (nb.plain_number(p1.expr).line or c.place.line) == c.place.line or
                tilde_between(self.doc.line_text(c.place, c.place.line) or c.context.before or "", p1, p2)):
            return True  # "β = 0.0001 ~ 0.001": a range of typical values, no approximation; "1.637 × 10^9 ≈ 26.2"
                         #   GB with "16 bytes ×" outside the formula: a number and what it leads to, nothing
                         #   worked between them (after a computation, `e^0 = 1` then "so ≈ 3" on the next
                         #   line, only a tilde says range)
        if k1 == next(k for k, p in enumerate(c.parts) if isinstance(p, ExprPart)) and \
                after_a_group(p1, self.doc.line_text(c.place, c.place.line) or ""):
            return True  # "+ 5, 120 + 163,840,000 = 13,015,864,320": the tail of a sum cut at a thousands group
        if rel == "≈" and _ordered_whole(p1.expr, p2.expr) and \
                tilde_between(self.doc.line_text(c.place, c.place.line) or c.context.before or "", p1, p2):
            return True  # "범위: -128 ~ 127": the range of an 8-bit integer, a tilde between its ends
        if rel in ("=", "≈") and any(hyphen_range(p) and not (nb.plain_number(q.expr) or nb.Num.parse("0")).value < 0
                                      for p, q in ((p1, p2), (p2, p1))):
            return True  # "\\sim 0.88-2.15 %/K ... \\sim 0.03-0.77 %/K": ranges measured (a negative result after
                         #   one, `0.88-2.15 = -1.27`, is a subtraction worked)
        if rel == "=" and two_givens(p1.expr, p2.expr) and (k1 == 0 or bare_run(values)):
            return True  # "would require 3.1 = 2.7, impossible": two numbers set equal, nothing worked;
                         #   "= 0.85   = 0.60   = 0.55" under four columns: values side by side
        return False

    def _step_slip(self, c: Chain, p1, n2: Num, got: float, term, rel: str, final: bool, identified: bool,
                   exacts: list[float], step: str) -> bool:
        """A printed value its own expression does not give (`got`, what `term` gives: p1's whole expression, or
        the term of it that n2 stands for where the two sides were compared term by term): a finding (True, the
        line is done), or False where a convention or another reading explains it."""
        if rel == "≈" and final and any(n2.contains(float(x)) for x in exacts):
            return False  # "0.5994 ≈ 0.600" for weights of exactly 1/3: the quantity, rounded right
        if final and any(n2.contains(float(x)) for x in exacts) and within_addends(p1.expr, n2, got):
            return False  # "1.05 + 1.00 + ... + 1.80 = 9.00": the exact sum (8.998) rounded, not the
                          #   rounded addends' (8.99): what the row sums to, worked at full precision
        if final and identified and any(n2.contains(float(x)) for x in exacts) and \
                abs(got - n2.value) <= 2 * n2.half * (1 + 1e-9):
            return False  # "A_22 = 19.453 / 34.647 = 0.562": the named weight (0.561501) rounded right,
                          #   its rounded operands' quotient (0.561463) a hair below: no slip of either
        if spread_reading(p1.expr, n2) is not None:
            return False  # σ = √(Σ (x - m)²)/4 printed as the sample spread (÷3): a convention
        if exact_sum_of_rounded_exps(p1.expr, n2, printed_before(self.doc, c.place)):
            return False  # 2.72 + 20.09 + 7.39 = 30.19: e¹ + e³ + e² added before rounding
        if scaled_after(c.text, n2, got):
            return False  # "= 2505.5 (after /√d_k)": the sum, divided as its remark says
        if n2.contains(-got) and got < 0 and _LOG.search(p1.text):
            self.add(Finding(n2.line or c.place.line, c.place.cell, _chain_text(c), n2.text, got,
                             n2.rounded(got), step, f"{p1.text[:60]} is {n2.rounded(got)}: the printed value is "
                             "its negative, as a loss or an entropy (−log p) is written", "dropped_sign", "note"))
            return True  # "guessing among 50,257 tokens gives log(1/50257) ≈ 10.8": the loss, minus dropped
        if in_time_unit(n2, got, self.doc, c.place) or grouped_divisor(getattr(p1, "text", ""), n2) or \
                first_term(n2, self.doc, c.place) or cut_at_a_group(n2, self.doc, c.place):
            return False  # `= 435 years` for 1.37e10 seconds; `16*20*28 / 2*2 = 2,240`: the divisor after the sign
        rough = self._approx_line or c.context.approx
        if in_larger_unit(n2, got, self.doc, c.place, rough) or thousands_point(n2, got) or \
                binary_magnitude(n2, got) or whole_quotients(p1.expr, n2) or dotted_thousands(p1.expr, n2) or \
                counted_in_words(n2, got, self.doc, c.place, rough) or \
                in_bits(getattr(p1, "text", "") or "", n2, got, self.doc, c.place) or \
                (isinstance(p1.expr, nb.Op) and floored_count(n2, got, self.doc, c.place)):
            return False  # `7\times10^9 \times 16 = 112` GB: bytes counted, the total in gigabytes;
                          #   589.824 for 589,824: a point that parts thousands; 148.375 M for 155,582,464
                          #   (M taken as 2²⁰); `65536/(32×56) = 36` warps: a count, floored
        unit = written_unit(n2, self.doc, c.place) or written_time(n2, self.doc, c.place)
        if unit is not None and _COUNT_WORD.search(getattr(p1, "text", "")) and not unit_of(p1.text) and \
                not re.search(r"(?i)\bbytes?\b|字节", p1.text):
            return False            # `4096 floats = 16 KB`: a count of numbers, each of a size the line does not say
        if unit is not None and nearer(got / unit[0], got, n2.value):
            # `= 67` MFLOPs for 33,554,432: judged in millions, as written (`80 × 0.9 - 35 = 31 GB` counts in GB)
            got, aside = got / unit[0], f" {unit[1]}"
            if n2.contains(got):
                return False        # `= 3.52 PFLOPs` for 3.5175e15: right in the unit written
            self.add(Finding(n2.line or c.place.line, c.place.cell, _chain_text(c), n2.text, got,
                             n2.rounded(got) if n2.decimals else f"{got:.0f}", step,
                             f"arithmetic slip: {spelled(p1.expr)[:60]} gives {got:.4g}{aside}",
                             "arithmetic"), merge=True)
            return True
        if (rel == "≈" or "≈" in c.rels[:c.parts.index(p1)] or c.context.approx) and cut_down(n2, got):
            self.add(Finding(n2.line or c.place.line, c.place.cell, _chain_text(c), n2.text, got, n2.rounded(got),
                             step, f"one unit in the last digit: {spelled(p1.expr)[:60]} gives {got:.6g}, cut off "
                             "rather than rounded under ≈", "rounded_sum", "note"), merge=True)
            return True
        other = total_worked_elsewhere(self.doc.chains, c, n2) if "+" in p1.text else None
        if other is not None:    # the total is worked out elsewhere from other terms: a term here is wrong
            self.add(Finding(n2.line or c.place.line, c.place.cell, f"the terms of {_chain_text(c)}",
                             p1.text[:60], n2.value, n2.text, step,
                             f"the written terms add up to {n2.rounded(got)}, not to the total {n2.text} that "
                             f"{_chain_text(other)[:50]} works out (line {other.place.line}): a term is wrong",
                             "arithmetic"), merge=True)
            return True
        self.add(Finding(n2.line or c.place.line, c.place.cell, _chain_text(c), n2.text, got,
                         n2.rounded(got), step,
                         f"arithmetic slip: {spelled(term)[:60]} gives "
                         f"{n2.rounded(got)}" + exact_aside(n2, got, exacts),
                         _simple_kind(n2, got) if _simple_kind(n2, got) != "wrong_value" else "arithmetic"),
                 merge=True)           # the same number as an entry on its line ([1.16/3.70=0.13, ...]): one slip
        return True

    def _judge_arith_result(self, c: Chain, values, target, exacts: list[float], step: str) -> None:
        """The printed result of an arithmetic line against the entry of the trace it computes."""
        if not exacts or other_layer(c.context.heading or ""):
            return              # `w1=0.4` under "Single neuron": that neuron's weight, no entry of attention's trace
        final = next(((k, p, nb.plain_number(p.expr)) for k, p, _ in reversed(values)
                      if nb.plain_number(p.expr) is not None), None)
        if final is None:
            return
        k, p, n = final
        if any(isinstance(q, LabelPart) and _UNREAD_SUM.search(q.text) for q in c.parts[:k]):
            return              # `和\=59,874+...+73,130\=217,210`: its own terms written in a form not read (escaped,
            #                     run together, "the rounded weights `0.3302 x 2` = 0.6604"); the result is
            #                     theirs, not an entry the trace can be asked for by a word of the label
        if k > 0 and k - 1 < len(c.rels) and c.rels[k - 1] == "→" and \
                nb.plain_number(getattr(c.parts[k - 1], "expr", None)) is not None:
            return              # "scaled: 5.70e-02 -> 5.50e-02": a statistic before and after a change, no value
            #                     that anything of the example computes
        if c.rels and c.rels[-1] == "≈":
            n = at_precision(n)
        self.n_numbers += 1
        listed = total_of_listed(self.doc.lines[c.place.line - 1], n) \
            if c.place.cell is None and 0 < c.place.line <= len(self.doc.lines) else None
        if listed is not None:  # "exponentials 1, 2.028, 2.028, total 5.056": the sum of the numbers before it
            # (a total the configuration gives is right: a listed term is the slip, found on its own)
            if abs(listed[0] - n.value) > listed[1] + 1e-12 and not any(within_print(n, x) for x in exacts):
                self.add(Finding(n.line or c.place.line, c.place.cell, _chain_text(c), n.text, listed[0],
                                 n.rounded(listed[0]), step, f"arithmetic slip: the numbers listed before it add up "
                                 f"to {n.rounded(listed[0])}", "arithmetic"), merge=True)
            return
        if any(within_print(n, x) or scaled_after(c.text, n, float(x)) for x in exacts):
            return              # (or the entry divided by a root, as the line's remark says: "= 2505.5 (after /√d_k)")
        if (not (target[3] and self.named_peers_hold(c)) and self.outside(c.place, _chain_text(c))) or \
                (not target[3] and not self.in_scope(c.place)):
            # a number named only by a word ("α = 0.01") is identified by nothing outside the example's sections
            self.n_numbers -= 1
            return
        if not target[3] and len(values) == 1 and self._in_a_judged_array(c, n):
            self.n_numbers -= 1
            self.n_claims -= 1
            return              # `Weight from The: 0.1983` read as a row of A as well: the row judged it in its place,
            #                     and the word alone would pick whichever entry of A lies nearest
        slips = [x for x in exacts if _simple_kind(n, float(x)) != "wrong_value"]
        exact = float(slips[0]) if slips and not target[3] else float(min(exacts, key=lambda x: abs(x - n.value)))
        # a bare number named by a word alone, with many entries it may be (more than a few rows' sums): a
        # recognisable slip of one (digits swapped, one digit off), or one within 1%, says which; the nearest of
        # sixteen weights within 5% is no identity
        off = abs(exact - n.value) / max(abs(exact), 1e-9)
        near = off <= 0.05 and (len(values) > 1 or len(set(exacts)) <= 4) or off <= 0.01
        if not target[3] and not (_simple_kind(n, exact) != "wrong_value" or near):
            self.n_claims -= 1
            return
        if target[3] and len(values) == 1 and _simple_kind(n, exact) == "wrong_value" and \
                max(abs(exact), abs(n.value)) > 10 * min(abs(exact), abs(n.value)):
            # "q1·k2 = 96" against an entry of 0.3: a bare named value an order of magnitude from its entry, with no
            # terms of its own, is another example's (the famous 112 and 96 beside a toy table), not a slip here
            self.n_claims -= 1
            self.n_numbers -= 1
            return
        self._judge_result_value(c, values, target, k, n, exact, step)

    def _judge_result_value(self, c: Chain, values, target, k: int, n: Num, exact: float, step: str) -> None:
        """The identified result of a line against its entry's exact value: a note where rounding (of the value
        itself, of the terms or scores printed before it) explains the difference, else a finding."""
        before = [f for kk, _, f in values if kk < k and f is not None]
        if not target[3] and abs(exact - n.value) <= 2 * n.half + 1e-12:
            cut = n.decimals is not None and abs(math.trunc(exact * 10 ** n.decimals) / 10 ** n.decimals - n.value) \
                < 1e-9 * max(1.0, abs(exact))
            why = f"one unit in the last digit: {exact:.6g} cut off after {n.decimals} decimals, not rounded" if cut \
                else "one unit in the last digit: rounding of the values it comes from"
            if before and n.contains(before[-1]):
                # 2.028 + 1.000 + 1.640 = 4.668: the printed terms give it, whatever the exact sum's last digit
                why = f"sum of rounded terms: the printed terms give {n.text}, the exact terms {n.rounded(exact)}"
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, why, "rounded_sum", "note"))
            return
        if not before and len(values) == 1:
            before = self._printed_addends(c, n, target[0].startswith(lb.SHOWN["row_sum"]))
        if before and (n.contains(before[-1]) or c.rels and c.rels[-1] == "≈" and nb.nines_below_one(n, before[-1])):
            if len(values) > 1 and not any(x.decimals for _, p, _ in values for x in nb.leaves(p.expr) if x is not n):
                return       # e^{12}/(e^{12} + 31) ≈ 0.9998: whole terms are not rounded; it lands near 1 by chance
            if any(has_vector(p.expr) for _, p, _ in values):
                return       # [0.6, 0.8] · [0.4, 0.7] = 0.80: its own vectors give it; other vectors than the entry's
            if abs(exact - n.value) > 0.02 * max(abs(exact), abs(n.value)) + 4 * n.half:
                return       # its terms give it, and the entry it was matched with is far off: another row's sum
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step,
                             f"sum of rounded terms: the printed terms give {n.text}, the exact terms "
                             f"{n.rounded(exact)}", "rounded_sum", "note"))
            return
        if c.context.approx and abs(n.value - exact) <= 2 * n.half + 1e-12:
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, "within the approximation the document declares",
                             "rounded_sum", "note"))
            return
        q = self.printed_quotient(c.place, n, exact) if step == "softmax" and len(values) == 1 else None
        if q is not None:
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, f"follows from the rounded exponentials and their sum printed "
                             f"before it (they give {q:.6g}); the exact {exact:.6g} rounds to {n.rounded(exact)}",
                             "rounded_sum", "note"))
            return
        node = next((k for k in ("row_sum", "E") if target[0].startswith(lb.SHOWN[k])), None)
        alt = self._from_printed_scores(c, n, exact, node) if node else None
        if alt is not None:
            self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                             n.rounded(exact), step, f"follows from the rounded {alt[1]} printed before it (they give "
                             f"{alt[0]:.6g}); the exact {exact:.6g} rounds to {n.rounded(exact)}", "rounded_sum",
                             "note"))
            return
        self.add(Finding(n.line or c.place.line, c.place.cell, f"{target[0]}: {_chain_text(c)}", n.text, exact,
                         n.rounded(exact), step, _simple_cause(n, exact), _simple_kind(n, exact)))

    def _from_printed_scores(self, c: Chain, n: Num, exact: float, node: str) -> tuple[float, str] | None:
        """An exponential, or a row sum of them, worked from the scores as printed (rounded) before it: e^{0.70711}
        + ... for 1/√2 gives 5.54931 where the exact scores give 5.54930, e^{1.414} = 4.112 where e^{√2} is 4.113;
        or a row sum of the exponentials rounded as its own line prints them (`each e^{0.71} ≈ 2.03`, "the sum is
        6.09": 3 × 2.03), of the exact scores or of the printed ones.  The entry is the one whose exact value is
        `exact`; (the value they give, what was rounded) when it is what the document printed, else None."""
        near = abs(n.value - exact) <= 4 * n.half + 1e-12
        for v in self.vs.views:
            if v.node != node or (v.b or 0) != 0:
                continue
            hits = np.flatnonzero(np.isclose(v.M.reshape(-1), exact, rtol=0, atol=1e-12))
            alt = self.from_printed(v, c.place.order) if hits.size and near else None
            if alt is not None and alt.size == v.M.size and not math.isnan(x := float(alt.reshape(-1)[hits[0]])) \
                    and n.contains(x):
                return x, "scores"
            # (far from the exact sum, only the printed scores can give it: the sum follows from them, and they
            # from whatever put them off, a finding of its own)
            d = self.exp_decimals(c) if node == "row_sum" and hits.size else None
            e = next((w for w in self.vs.views if w.node == "E" and w.h == v.h and w.variant == v.variant and
                      (w.b or 0) == 0), None) if d is not None else None
            tries = ((e.M, "exponentials"), (self.from_printed(e, c.place.order), "scores and exponentials")) \
                if e is not None else ()
            for got, what in tries:
                if got is not None and got.shape == e.M.shape and hits[0] < got.shape[0] and \
                        (near or what != "exponentials") and n.contains(x := float(np.sum(np.round(got[hits[0]], d)))):
                    return x, what         # each exponential rounded as the line prints it, then added
        return None

    def compare_parts(self, left, right, final: bool, exacts: list[float], approx: bool = False):
        """None: nothing to compare; True: they agree; (printed number, value it should be, the left-hand term
        that gives it): they do not.

        approx: the document declares the value approximate (≈, "roughly"): an integer stands for its unit, and
        terms printed to three or more significant digits are taken as the roundings they are (5/1.41 ≈ 3.54
        for 5/√2, 20.1/33.2 ≈ 0.60 from unrounded 20.09/33.23)."""
        n = nb.plain_number(right)
        if n is not None and approx:
            n = at_precision(n)
        if n is None:
            # \frac{a}{b + c} = \frac{a}{d}: compare the parts that differ
            if isinstance(left, nb.Op) and isinstance(right, nb.Op) and left.op == right.op and \
                    len(left.args) == len(right.args) and left.op in ("/", "*") and \
                    not (nb.has_symbols(left) and nb.has_symbols(right)):
                # (not "(n × 512) · (512 × 64) = (n × 64)": shapes multiplied, both sides in n, no arithmetic)
                if same_value(left, right):
                    return True      # "2 / 6 = 1/3", "e^{0.5} / (3 e^{0.5}) = 1/3": the fraction reduced, not
                                     # its parts worked out one by one
                if negations(left.args) % 2 != negations(right.args) % 2:
                    return None      # "-½(log 0.153 + log 0.105) = ½(1.879 + 2.256)": the minus taken into the
                                     # terms, each written as its negative: no factor stands for its partner
                for x, y in zip(left.args, right.args):
                    got = self.compare_parts(x, y, False, [], approx)
                    if got not in (None, True):
                        return got          # (with the term it judged)
                return True
            # (0.22)(0.54) + (0.64)(0.36) = 0.1188 + 0.2304: term by term
            lt, rt = nb.terms_of(left), nb.terms_of(right)
            if len(lt) == len(rt) >= 2 and all(nb.plain_number(y) is not None for y in rt) and \
                    not nb.has_symbols(left):
                seen = False
                for x, y in zip(lt, rt):
                    got = self.compare_parts(x, y, False, [], approx)
                    if got not in (None, True):
                        return got
                    seen = seen or got is True
                return True if seen else None
            return None
        if nb.has_symbols(left) and not nb.vector_dot(left):
            return None
        try:
            face = nb.face(left)
        except (ArithmeticError, OverflowError, ValueError):
            return None
        if math.isinf(n.value) and math.copysign(1, n.value) * face > FLOAT32_MAX:
            return True              # exp(400) ≈ ∞: past float32's largest number, what a program prints is inf
        if abs(face - n.value) <= n.half * (1 + 1e-9) + 1e-12 * max(1.0, abs(face)):
            return True
        if self._degrees and _ops(left) & {"cos", "sin", "tan"} and in_degrees(left, n):
            return True              # θ = 90° ... cos(90) = 0: the angle in degrees, as the line writes it
        if approx and (rounded_terms_allow(left, n) or unit_dropped(face, n) or nb.nines_below_one(n, face) or
                       _an_estimate(n) and abs(face - n.value) <= 0.05 * abs(n.value)):
            return True              # (≈ 0.9999 for 0.999993: "all but 1", numbers.nines_below_one; "roughly ...
            #                          = 16e9" for 16.64e9: a count in powers of ten, said to be rough, to 5%)
        if whole_count(left, n, face):
            return True
        if n.decimals is None and _ops(left) & {"exp", "sqrt", "log", "ln", "pow"} and abs(face - n.value) <= 0.5:
            return True              # e^5 = 148: a value that cannot be whole, printed as one, is rounded to units
        if n.decimals is None and "/" in _ops(left) and decimal_literal(left) and abs(face - n.value) <= 0.5:
            return True              # (54.60 / 64.75) * 100 = 84%: a quotient of decimals, printed whole, is rounded
        if _ops(left) & {"exp", "sqrt", "log", "ln", "pow"} and rounded_twice(n, face):
            return True              # e^{0.12} = 1.128: 1.12750 rounded to four decimals first, then to three
        if approx and carried_root(left, n, face):
            return True
        if cut_off(left, n, face):
            return True
        # terms printed at the result's precision (or finer) carry their own rounding: e^{1.4142} ≈ 4.1133
        try:
            iv = nb.evaluate(nb.exact_below(left, n.decimals if n.decimals is not None else 0,
                                            nb.significant_digits(n) or None))
        except (ArithmeticError, OverflowError, ValueError):
            return (n, face, left)
        if iv.lo - 1e-12 <= n.hi and n.lo <= iv.hi + 1e-12:
            if self.vs is not None and exp_of_neither(left, n, self.trace_values()):
                return (n, face, left)     # e^{8.49} ≈ 4875.1: neither e^{8.49} nor e^{8.4853}, the score 8.49 rounds
            if n.decimals is not None and iv.hi - iv.lo > 40 * nb.half_unit(n.decimals):
                return True          # (L+ - L-)/2ε: the terms' rounding, amplified, spans many of the result's units
            if final and exacts and (any(within_print(n, x) for x in exacts) or speaks_for(exacts, n, iv)):
                return True if any(within_print(n, x) for x in exacts) else (n, face, left)
            if _ops(left) & {"exp", "sqrt", "pow", "cos", "sin", "tan", "tanh", "log", "ln"} or one_product(left):
                return True          # e^{1.4142} ≈ 4.1133, 0.0877 × 1.7692 = 0.1551: the factors were rounded
            if rounded_addends(left) or products_of_rounded(left):
                return True          # 1.350 + 0.819 + 2.460 = 4.628: addends that are results rounded to 3+ decimals
            if self._approx_line and amplified_products(left, n):
                return True          # h ≈ 0.50·2 + 0.41·4 = 2.63: 0.41 is 1/√6 rounded, and ·4 amplifies it
            return (n, face, left)         # 0.30 + 0.06 + 0.02 + 0.05 = 0.44: printed addends give their sum as written
        if self.from_intermediate(left, n):
            return True              # e^{0.87} ≈ 2.377: 0.87 is the printed rounding of the score 0.866
        if product_of_short_factors(left, n) and rounded_terms_allow(left, n):
            return True              # 0.999665 × 0.000335 = 3.352e-4: 0.000335 is 1 - p rounded to three figures,
            #                          and the product of the unrounded factors is what is printed
        return (n, face, left)

    def _in_a_judged_array(self, c: Chain, n: Num) -> bool:
        """Is this number also an entry of an array read on its line (a column of lines read as one vector) that the
        configuration identified?"""
        for o in self.objs:
            if o.a.place.cell != c.place.cell or o.val is None:
                continue
            if any(m is not None and m.line == n.line and m.text == n.text for m in o.a.numbers) and \
                    self.plans.get(o.a.id, {}).get("hit") is not None:
                return True
        return False

    def from_intermediate(self, left, n: Num) -> bool:
        """e^{0.87} ≈ 2.377: a term printed coarser than the result stands for the exact intermediate it was
        rounded from (the score 0.866), and the result is computed from that intermediate.

        Only for the monotone functions a person evaluates on a calculator (exp, √, ÷, log, powers), only for
        a term that rounds to an exact value of the trace, and the result must round to the function of that
        value: a value outside every such reading is still a slip.
        """
        if self.vs is None or n.decimals is None or not (_ops(left) & {"exp", "sqrt", "/", "pow", "log", "ln"}):
            return False
        coarse = [x for x in nb.leaves(left) if x.decimals is not None and x.decimals < n.decimals
                  and not x.exact and math.isfinite(x.value)]
        if not 1 <= len(coarse) <= 2:
            return False
        pool = self.trace_values()
        cands = []
        for leaf in coarse:
            near = sorted({x for x in pool if leaf.contains(x) and abs(x - leaf.value) > 1e-12},
                          key=lambda x: abs(x - leaf.value))[:6]
            if not near:
                return False
            cands.append(near)
        for combo in itertools.product(*cands):
            sub = dict(zip((id(x) for x in coarse), combo))
            try:
                got = nb.face(nb.substitute(left, sub))
            except (ArithmeticError, OverflowError, ValueError):
                continue
            if n.contains(got):
                return True
        return False

    def trace_values(self) -> list[float]:
        """Every finite exact value of the configuration's intermediates (memoized)."""
        if self._trace_values is None:
            vals = set()
            for v in self.vs.views:
                M = np.asarray(v.M, dtype=float)
                vals.update(float(x) for x in M[np.isfinite(M)].reshape(-1))
            self._trace_values = sorted(vals)
        return self._trace_values
