"""Exact values for the closed-form claim: a document's closed form as a sympy number, the configuration's
entries as closed forms (`mha.exact.exact_layer`), equality to 50 digits, correct rounding of a long decimal,
and an entry's closed form written as the explanation writes it (`mha.explanation.closed`).

sympy and mpmath are imported here, and this module only when a document states a closed form or a long
decimal: `mha check` on anything else starts as before.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation, localcontext
from typing import Any

import numpy as np
import sympy as sp

from ...exact import ExactError, exact_layer, to_decimal
from ...explanation.closed import Row, number_latex, row_shift
from ...inputs import MHAInputError
from .. import numbers as nb
from ..model import View

DIGITS = 50                      # two values are equal when they agree to this many significant digits
MAX_POWER = 64                   # 2^{10^9} is not a closed form of attention: refused before sympy expands it


def to_sympy(e: Any) -> sp.Expr | None:
    """A closed form read by the readers as a sympy number (built node by node, never from text)."""
    try:
        return _build(e)
    except (ArithmeticError, ValueError, TypeError, RecursionError):
        return None


def _build(e: Any) -> sp.Expr:
    match e:
        case nb.Lit(num):
            return sp.Integer(int(num.value)) if num.decimals is None and num.value == int(num.value) \
                else sp.Rational(repr(num.value))
        case nb.Sym("e"):
            return sp.E
        case nb.Op("+", args):
            return sp.Add(*(_build(a) for a in args))
        case nb.Op("*", args):
            return sp.Mul(*(_build(a) for a in args))
        case nb.Op("/", (a, b)):
            d = _build(b)
            if d == 0:
                raise ZeroDivisionError("division by zero")
            return _build(a) / d
        case nb.Op("neg", (a,)):
            return -_build(a)
        case nb.Op("sqrt", (a,)):
            return sp.sqrt(_build(a))
        case nb.Op("exp", (a,)):
            return sp.exp(_build(a))
        case nb.Op("pow", (a, b)):
            p = _build(b)
            if not p.is_number or abs(sp.N(p)) > MAX_POWER:
                raise ValueError("power too large")
            return sp.Pow(_build(a), p)
    raise ValueError(f"not a closed form: {e!r}")


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """a = b to DIGITS significant digits (mpmath through sympy's evalf)."""
    x, y = sp.N(a, DIGITS + 10), sp.N(b, DIGITS + 10)
    return bool(abs(x - y) <= sp.Float(10, DIGITS + 10) ** -DIGITS * max(1, abs(y)))


def rounded_text(x: sp.Expr, decimals: int) -> str:
    """x correctly rounded at `decimals` places (every digit certified: mha.exact.to_decimal)."""
    q = Decimal(1).scaleb(-decimals)
    d = to_decimal(x, decimals)
    with localcontext() as ctx:          # a number printed with hundreds of decimals (1e-999) needs the digits
        ctx.prec = max(ctx.prec, decimals + max(d.adjusted(), 0) + 10) if d.is_finite() else ctx.prec
        return str(d.quantize(q, rounding=ROUND_HALF_EVEN))


def printed_decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("−", "-").lstrip("+"))
    except InvalidOperation:
        return None


class ExactTrace:
    """The configuration's intermediates as closed forms, entry by entry, under the judge's view names."""

    def __init__(self, mapping: dict[str, Any]):
        self.steps = exact_layer(_plain(mapping))

    @classmethod
    def of(cls, mapping: dict[str, Any] | None) -> "ExactTrace | None":
        """None when the configuration has no exact reading (inputs that are not short decimals, past a cap)."""
        if mapping is None:
            return None
        try:
            return cls(mapping)
        except (ExactError, MHAInputError, ValueError, TypeError, ArithmeticError):
            return None

    def matrix(self, v: View) -> np.ndarray | None:
        """The exact 2-D matrix of a view (None for the views kept for people's variants: unshifted, additive)."""
        s, b, h = self.steps, v.b or 0, v.h
        if v.variant:
            return None
        g = s.config.group(h) if h is not None else None
        per_head = {"Qh": (s.Qh, h), "Kh": (s.Kh, g), "Vh": (s.Vh, g), "Qr": (s.Qh_rope, h), "Kr": (s.K_all, g),
                    "QKt": (s.QKt, h), "S": (s.S, h), "E": (s.E, h), "A": (s.A, h), "O": (s.O, h)}
        if v.node in per_head and h is not None:
            arr, k = per_head[v.node]
            return None if arr is None else arr[b, k]
        if v.node in ("row_max", "row_sum") and h is not None:
            return getattr(s, v.node)[b, h][None, :]
        if v.node in ("Q", "K", "V", "O_concat", "Y"):
            return getattr(s, v.node)[b]
        return None

    def value(self, v: View, i: int, j: int) -> sp.Expr | None:
        M = self.matrix(v)
        if M is None or M.shape != v.M.shape:
            return None
        return sp.sympify(M[i, j])

    def latex(self, v: View, i: int, j: int) -> str:
        """The entry as the explanation writes it: a weight over its row's chosen exponential, an output entry
        as one fraction, anything else in sympy's LaTeX."""
        s, b = self.steps, v.b or 0
        if v.node in ("O_concat", "Y") and (v.node == "O_concat" or s.inputs.W_O is None) and not v.variant:
            d_v = s.O.shape[-1]                      # without W_O, Y is the heads' outputs side by side
            v, j = View("O", v.b, j // d_v, v.M), j % d_v
        if v.node in ("A", "O") and v.h is not None and not v.variant:
            row = [sp.sympify(x) for x in s.S[b, v.h, i]]
            r = Row(tuple(row), row_shift(row))
            if v.node == "A":
                return r.weight(j)
            V = s.V_all[b, s.config.group(v.h)]
            return r.mix([sp.sympify(V[k, j]) for k in range(V.shape[0])])
        x = self.value(v, i, j)
        return number_latex(x) if x is not None else ""


def _plain(m: Any) -> Any:
    """The candidate's mapping as JSON-like data (floats are read by mha.exact as the decimals they print as)."""
    if isinstance(m, dict):
        return {k: _plain(v) for k, v in m.items()}
    if isinstance(m, np.ndarray):
        return m.tolist()
    if isinstance(m, (list, tuple)):
        return [_plain(v) for v in m]
    if isinstance(m, np.generic):
        return m.item()
    return m
