"""Closed forms beside the decimals (`mha explain --exact`): the exact values of `mha.exact`, in LaTeX.

A row of the softmax is written over one of its exponentials,
A_ij = e^{S_ij - d} / Σ_k e^{S_ik - d}, with d the row's largest score (the
stable softmax's shift, giving 1 / (1 + e^{-Δ} + …) for the largest weight), its
smallest score, or 0 (no division).  The row takes the d whose LaTeX is shortest,
counting every entry of the row (`row_shift`); a tie goes to the largest score,
then the smallest.  O and Y reuse the row's choice, so a row reads with one
denominator throughout.  Entries are equal as expressions when sympy's canonical
forms are identical, and equal entries are written on one line.

`ExactBuilder` is the `Builder` of the ordinary explanation plus these blocks:
after each matrix of the walk-through, the matrix's entries whose decimals are
not exact, each as "closed form ≈ decimal".  sympy is imported only here (and in
`mha.exact`); the ordinary explanation never imports this module.

>>> S = [sp.sqrt(2) / 2, sp.sqrt(2) / 2, sp.sqrt(2)]          # the seed's S^(1), row 3
>>> row = Row(tuple(S), row_shift(S))
>>> row.weight(0), row.weight(2)
('\\\\frac{1}{2 + e^{\\\\sqrt{2}/2}}', '\\\\frac{e^{\\\\sqrt{2}/2}}{2 + e^{\\\\sqrt{2}/2}}')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable

import numpy as np
import sympy as sp

from .base import sup
from .blocks import Block, Items, Matrix, Note, Para, Section
from .model import Builder
from .numbers import format_number, latex_number

NEG_INF = sp.S.NegativeInfinity


# ------------------------------------------------------------------ numbers and sums of exponentials

def number_latex(x: sp.Expr) -> str:
    """An exact number: an integer, a terminating decimal (0.125), \\frac{p}{q}, or sympy's LaTeX (√2/2 …)."""
    if x.is_Rational:
        p, q = int(x.p), int(x.q)
        sign = "-" if p < 0 else ""
        if q == 1:
            return str(p)
        places = next((n for n in range(1, 13) if 10 ** n % q == 0), None)     # 1/8 = 0.125; 1/3 has none
        if places is None:
            return f"{sign}\\frac{{{abs(p)}}}{{{q}}}"
        digits = str(abs(p) * 10 ** places // q).rjust(places + 1, "0")
        return f"{sign}{digits[:-places]}.{digits[-places:]}"
    return _compact(sp.latex(x))


def exponent_latex(x: sp.Expr) -> str:
    """An exponent, written inline as a hand-written e^{…} is: √2/2 rather than a stacked fraction.  With cos
    or sin (RoPE) the fractions stay stacked: \\sin(2)/3 would read as sin(2/3) as well."""
    return _compact(sp.latex(x, fold_short_frac=not x.atoms(sp.Function)))


def _compact(latex: str) -> str:
    text = latex.replace(" / ", "/").replace(" \\right)", "\\right)")        # \\cos{\\left(2\\right)}: no space
    return "-" + text[2:] if text.startswith("- ") else text


def exp_sum(terms: dict[sp.Expr, sp.Expr]) -> str:
    """Σ c·e^{x} in LaTeX, from {x: c}: the constant (x = 0) first, then the others in the order given."""
    items = [(x, c) for x, c in terms.items() if c != 0]
    items.sort(key=lambda xc: xc[0] != 0)                       # stable: only the constant moves
    out = ""
    for x, c in items:
        if x == 0:
            term = number_latex(abs(c))
        else:
            coef = "" if abs(c) == 1 else number_latex(abs(c)) + " "
            term = f"{coef}e^{{{exponent_latex(x)}}}"
        out += (" - " if c < 0 else " + ") + term if out else ("-" if c < 0 else "") + term
    return out or "0"


def fraction(numerator: str, denominator: str) -> str:
    if numerator == "0" or denominator == "1":
        return numerator
    return f"\\frac{{{numerator}}}{{{denominator}}}"


# ------------------------------------------------------------------ one row of the softmax

@dataclass(frozen=True)
class Row:
    """One row of scores (-oo where masked) and the exponent d that its closed forms are written over."""

    scores: tuple[sp.Expr, ...]
    shift: sp.Expr

    def visible(self) -> list[int]:
        return [k for k, s in enumerate(self.scores) if s != NEG_INF]

    def terms(self, coefficients: Iterable[sp.Expr]) -> dict[sp.Expr, sp.Expr]:
        """{S_k - d: Σ of the coefficients of the keys with that score}, in key order."""
        out: dict[sp.Expr, sp.Expr] = {}
        for k, c in zip(range(len(self.scores)), coefficients):
            if self.scores[k] != NEG_INF and c != 0:
                x = self.scores[k] - self.shift
                out[x] = out.get(x, sp.S.Zero) + c
        return out

    def denominator(self) -> str:
        return exp_sum(self.terms([sp.S.One] * len(self.scores)))

    def weight(self, j: int) -> str:
        """A_ij."""
        if self.scores[j] == NEG_INF:
            return "0"
        return fraction(exp_sum(self.terms([sp.S.One if k == j else sp.S.Zero for k in range(len(self.scores))])),
                        self.denominator())

    def mix(self, coefficients: Iterable[sp.Expr]) -> str:
        """Σ_k c_k A_ik over the row's denominator: an entry of O (c = a column of V) or a head's part of Y."""
        return fraction(exp_sum(self.terms(coefficients)), self.denominator())


def row_shift(scores: Iterable[sp.Expr]) -> sp.Expr:
    """The exponent d that makes the row's weights shortest in LaTeX: the largest score, the smallest, or 0."""
    scores = tuple(scores)
    visible = [s for s in scores if s != NEG_INF]
    if not visible:
        return sp.S.Zero
    values = [sp.N(s, 30) for s in visible]
    candidates = [visible[values.index(max(values))], visible[values.index(min(values))], sp.S.Zero]
    best, best_len = candidates[0], None
    for d in dict.fromkeys(candidates):                     # in order, without repeats
        length = sum(len(Row(scores, d).weight(j)) for j in range(len(scores)))
        if best_len is None or length < best_len:
            best, best_len = d, length
    return best


# ------------------------------------------------------------------ the explanation with closed forms

class ExactBuilder(Builder):
    """The walk-through of `Builder`, with each matrix's closed forms after it."""

    def __init__(self, trace, opts, steps):
        super().__init__(trace, opts)
        self.x = steps
        self._rows: dict[tuple[int, int], Row] = {}
        self._ties_said = False

    def build(self, appendix: Iterable[Section] = ()) -> list[Section]:
        sections = super().build(appendix)
        out = []
        for sec in sections:
            blocks: list[Block] = []
            for block in sec.blocks:
                blocks.append(block)
                if isinstance(block, Matrix):
                    blocks += self.closed_forms(sec.key, block)
            if sec.key == "setup":
                blocks.insert(0, Note(self.tr("exact.intro")))
            out.append(replace(sec, blocks=tuple(blocks)))
        return out

    def row(self, h: int, i: int) -> Row:
        """Row i of head h, written over its shortest shift (computed once, shared by A, O and Y)."""
        if (h, i) not in self._rows:
            scores = tuple(self.x.S[self.b, h, i])
            self._rows[h, i] = Row(scores, row_shift(scores))
        return self._rows[h, i]

    # ------------------------------------------------------------ which exact array a matrix shows

    def exact_of(self, key: str, symbol: str) -> tuple[str, np.ndarray | None, Callable[[int, int], str] | None]:
        """(kind, exact array, LaTeX of entry (i, j)) for the matrix of a section; kind "" when none applies."""
        x, b, inp = self.x, self.b, self.x.inputs
        if key.startswith("head") and "." in key:
            h = int(key[4:key.index(".")]) - 1
            step = key[key.index(".") + 1:]
            g = self.t.group(h)
            arrays = {"scores": {f"{sup('Q', h)} ({self.kv('K', h)})^\\top": x.QKt[b, h]},
                      "alibi": {sup("B", h): None if x.position_bias is None else x.position_bias[h]},
                      "scale": {sup("S", h): x.S[b, h]},
                      "av": {self.kv("V", h): x.V_all[b, g]}}.get(step, {})
            if step == "softmax" and symbol == sup("A", h):
                return "formula", x.A[b, h], lambda i, j: self.row(h, i).weight(j)
            if step == "av" and symbol == sup("O", h):
                V = x.V_all[b, g]
                return "formula", x.O[b, h], lambda i, j: self.row(h, i).mix(V[:, j])
            return ("values", arrays[symbol], None) if symbol in arrays else ("", None, None)
        if key == "concat":
            return "concat", None, None
        if key == "output" and symbol == "Y":
            if x.inputs.W_O is None or ("W_O" in self.c.weights_identity and inp.b["b_O"] is None):
                return "y_concat", None, None
            return "formula", x.Y[b], self.y_entry
        table = self.input_arrays().get(key, {})
        return ("values", table[symbol], None) if symbol in table else ("", None, None)

    def input_arrays(self) -> dict[str, dict[str, np.ndarray]]:
        """The inputs, projections, split, RoPE and cache matrices, by section and symbol."""
        x, b, inp, c = self.x, self.b, self.x.inputs, self.c
        setup = {"X": None if inp.X is None else inp.X[b], "X_k": None if inp.key is None else inp.key[b],
                 "X_v": None if inp.value is None else inp.value[b]}
        if c.given_qkv:
            setup.update(Q=inp.Q_in[b], K=inp.K_in[b], V=inp.V_in[b])
        proj = {"W_Q": inp.W_Q, "W_K": inp.W_K, "W_V": inp.W_V, "Q": x.Q[b], "K": x.K[b], "V": x.V[b],
                "Q = K = V": x.Q[b]}
        proj.update({n: v[None] for n, v in inp.b.items() if v is not None and n != "b_O"})
        split, rope, cache = {}, {}, {}
        for h in range(c.n_heads):
            g = self.t.group(h)
            split[sup("Q", h)] = x.Qh[b, h]
            split[f"{sup('Q', h)} = {self.new_kv('K', g)} = {self.new_kv('V', g)}"] = x.Qh[b, h]
            split[self.new_kv("K", g)], split[self.new_kv("V", g)] = x.Kh[b, g], x.Vh[b, g]
            if x.Qh_rope is not None:
                rope[f"\\mathrm{{RoPE}}({sup('Q', h)})"] = x.Qh_rope[b, h]
                rope[f"\\mathrm{{RoPE}}({self.new_kv('K', g)})"] = x.Kh_rope[b, g]
            if inp.cache_K is not None:
                cache[f"K^{{({g + 1})}}_{{\\text{{cache}}}}"] = inp.cache_K[b, g]
                cache[f"V^{{({g + 1})}}_{{\\text{{cache}}}}"] = inp.cache_V[b, g]
                cache[sup("K", g)], cache[sup("V", g)] = x.K_all[b, g], x.V_all[b, g]
        output = {"W_O": inp.W_O} if inp.W_O is not None else {}
        if inp.b["b_O"] is not None:
            output["b_O"] = inp.b["b_O"][None]
        return {"setup": setup, "projections": proj, "split": split, "rope": rope, "cache": cache, "output": output}

    def y_entry(self, i: int, j: int) -> str:
        """Y_ij: each head's part over its row's denominator, then the bias."""
        x, b, c = self.x, self.b, self.c
        parts = []
        for h in range(c.n_heads):
            V = x.V_all[b, self.t.group(h)]
            w = x.inputs.W_O[h * c.d_v:(h + 1) * c.d_v, j]
            coefficients = [sum((V[k, cc] * w[cc] for cc in range(c.d_v)), sp.S.Zero) for k in range(V.shape[0])]
            part = self.row(h, i).mix(coefficients)
            if part != "0":
                parts.append(part)
        if x.inputs.b["b_O"] is not None and x.inputs.b["b_O"][j] != 0:
            parts.append(number_latex(x.inputs.b["b_O"][j]))
        return " + ".join(parts).replace("+ -", "- ") or "0"

    # ------------------------------------------------------------ the blocks

    def closed_forms(self, key: str, m: Matrix) -> list[Block]:
        kind, arr, entry = self.exact_of(key, m.symbol)
        if kind in ("concat", "y_concat"):
            return [Para(self.tr(f"exact.{kind}"))]
        if arr is None:
            return []
        if entry is None:
            entry = lambda i, j: number_latex(arr[i, j])                 # noqa: E731 - a value's own LaTeX
        cells = [(i, j, cell) for r, i in enumerate(m.rows) if i is not None
                 for c, j in enumerate(m.cols) if j is not None for cell in (m.cells[r][c],) if not cell.masked]
        if kind == "values":            # only what the decimals round: an integer or 0.5 is already exact
            cells = [(i, j, cell) for i, j, cell in cells if not self.printed_exactly(arr[i, j], cell.value)]
            if not cells:
                return []
        groups: dict[sp.Expr, list[tuple[int, int, float]]] = {}
        for i, j, cell in cells:
            groups.setdefault(arr[i, j], []).append((i, j, cell.value))
        name = m.symbol.split(" = ")[0]
        name = f"\\left({name}\\right)" if " " in name else name
        items = []
        for value, members in groups.items():
            lhs = " = ".join(f"{name}_{{{_index(i, j)}}}" for i, j, _ in members)
            form, shown = entry(members[0][0], members[0][1]), latex_number(members[0][2], self.o.precision)
            exact = self.printed_exactly(value, members[0][2])
            relation = "=" if exact else "\\approx"
            rhs = shown if form == shown else f"{form} {relation} {shown}"
            items.append(f"$\\displaystyle {lhs} = {rhs}$")         # fractions at full size, as on paper
        intro = "exact.formula" if kind == "formula" else "exact.values"
        ties = any(len(members) > 1 for members in groups.values())
        blocks: list[Block] = [Para(self.tr(intro, symbol=f"${m.symbol.split(' = ')[0]}$")), Items(tuple(items))]
        if ties and kind == "formula" and not self._ties_said:
            blocks.append(Para(self.tr("exact.ties")))       # said once, where it first happens
            self._ties_said = True
        return blocks

    def printed_exactly(self, value: sp.Expr, shown: float) -> bool:
        """Is the decimal shown the exact value itself (a rational that the digits write out in full)?"""
        p = format_number(shown, self.o.precision)
        if not value.is_Rational or p.exponent is not None or p.digits in ("inf", "nan"):
            return False
        return sp.Rational(p.sign + p.digits) == value


def _index(i: int, j: int) -> str:
    """The subscript of entry (i, j), counted from 1: 31, or 10,2 when a number has two digits."""
    return f"{i + 1}{j + 1}" if i < 9 and j < 9 else f"{i + 1},{j + 1}"
