"""What the claim modules share: how a view is named in a finding, the usual slip of one number, an entry's band."""

from __future__ import annotations

import math
import re

import numpy as np

from ..infer import Hit
from ..model import View
from ..numbers import Num
from ..objects import Chain
from ..report import Finding
from .. import labels as lb


def _band(v: View, i: int, j: int) -> float:
    return float(v.band[i, j]) if isinstance(v.band, np.ndarray) else float(v.band)


def _show_view(h: Hit) -> str:
    v = h.view
    if v is None:
        return "?"
    s = lb.SHOWN.get(v.node, v.node)
    if v.h is not None:
        s += f"^({v.h + 1})" if v.node not in ("W_Q", "W_K", "W_V") else f" head {v.h + 1}"
    if v.b:
        s += f" (sequence {v.b + 1})"
    if h.how == "T":
        s += "ᵀ"
    elif h.how == "row":
        s += f" row {h.index + 1}"
    elif h.how == "col":
        s += f" column {h.index + 1}"
    if v.variant == "unshifted":
        s += " (without subtracting the row max)"
    elif v.variant == "averaged":
        s += " (averaged over the heads)"
    return s


def entry_finding(num: Num, line: int, cell: int | None, what: str, exact: float, step: str, source: str) -> Finding:
    """A printed entry judged against its own printed terms: `source` says what they give ("the softmax of the
    scores printed at line 12"), and the finding adds the value they round to and the slip's kind."""
    want = num.rounded(exact)
    return Finding(num.line or line, cell, what, num.text, exact, want, step, f"{source} gives {want}",
                   _simple_kind(num, exact))


def _simple_kind(num: Num, exact: float) -> str:
    if not math.isfinite(exact):
        return "wrong_value"
    if exact != 0 and num.contains(-exact):
        return "dropped_sign"
    want = num.rounded(exact)
    a, b = num.text.lstrip("+"), want
    if a.lstrip("-") != b.lstrip("-") and len(a.lstrip("-")) == len(b.lstrip("-")):
        da, db = a.lstrip("-"), b.lstrip("-")
        diff = [k for k in range(len(da)) if da[k] != db[k]]
        if len(diff) == 2 and da[diff[0]] == db[diff[1]] and da[diff[1]] == db[diff[0]]:
            return "swapped_digits"
    return "wrong_value"


def _simple_cause(num: Num, exact: float) -> str | None:
    k = _simple_kind(num, exact)
    return {"dropped_sign": "dropped sign", "swapped_digits": f"swapped digits: the value rounds to "
            f"{num.rounded(exact)}"}.get(k)


def _chain_text(c: Chain) -> str:
    """The claim as a reader sees it: ω_23, not the tokens' ω _{23}."""
    text = re.sub(r"\s+([_^])", r"\1", c.shown or c.text)
    text = re.sub(r"([_^])\{([^{}\s]*)\}", r"\1\2", text)
    # a long line keeps its start and its end, where the printed result stands
    return text if len(text) <= 100 else text[:48].rstrip() + " … " + text[-48:].lstrip()


def _significant(num: Num) -> int:
    digits = num.text.lower().split("e")[0].lstrip("+-−").replace(".", "").lstrip("0")
    return len(digits)


def rounded_terms(e) -> Num | None:
    """The interval an arithmetic line stands for when each term printed to three or more significant digits is
    the rounding it is (1.41 for √2, 33.2 for 33.23); terms inside e^{…} stay as written, since a rounded argument
    moves the result too far to tell a slip, as do those inside a √ of less than 1/4.  None when it cannot be
    evaluated."""
    from .. import numbers as nb

    def widen(x, outer: bool = True):
        if isinstance(x, nb.Lit):
            num = x.num
            if outer and _significant(num) >= 3 and num.decimals is not None and math.isfinite(num.value):
                return nb.Lit(Num.parse(num.text, num.line))
            return nb.Lit(Num(num.value, num.text, num.value, num.value, num.line, num.decimals))
        if isinstance(x, nb.Op):
            inner = outer and (x.op in ("+", "*", "/", "neg") or x.op == "sqrt" and _at_least(x.args[0], 0.25))
            return nb.Op(x.op, tuple(widen(a, inner) for a in x.args))
        return x
    try:
        return nb.evaluate(widen(e))
    except (ArithmeticError, OverflowError, ValueError):
        return None


def _at_least(e, low: float) -> bool:
    """Is the expression's value at least `low`?  (A square root of such a value moves less than its argument:
    √(0.667 + 10⁻⁶) ≈ 0.8165 is worked from σ² = 2/3, printed rounded on the line before.)"""
    from .. import numbers as nb
    try:
        return nb.face(e) >= low
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False


def printed_unit(printed: str) -> float:
    """One unit in the last printed place of a plain decimal ("1.4521": 0.0001); 0 for anything else."""
    m = re.fullmatch(r"-?\d+\.(\d+)", printed.strip())
    return 10.0 ** -len(m.group(1)) if m else 0.0


def object_line(doc, f) -> tuple:
    """(cell, line) of the printed array a finding's number stands in (its first line), else the finding's own."""
    for a in doc.arrays:
        if a.place.cell == f.cell and a.rows and a.line <= f.line <= max(a.row_line(i) for i in range(len(a.rows))
                                                                          if a.rows[i] is not None) \
                and any(n is not None and n.text == f.printed for r in a.rows if r for n in r):
            return (a.place.cell, a.line)
    return (f.cell, f.line)


# steps whose values stand for one another: an output printed as O, the concatenation or Y
_STEP_FAMILY = {"weighted_sum": "out", "concat": "out", "output": "out", "scores": "scores", "scale": "scores",
                "softmax": "softmax", "projection": "proj", "split": "proj", "rope": "proj",
                "position": "proj"}


def explained_by(k, f) -> bool:
    """Does any value of the other reading's trace, of the finding's step, round to the finding's printed number?
    (When none does, that reading explains the number no better: a slip under both.  A score of 0.58 says nothing
    of an output printed 0.58.)"""
    try:
        n = Num.parse(f.printed)
    except (ValueError, TypeError):
        return True
    vs = getattr(k, "vs", None)
    if vs is None:
        return True
    family = _STEP_FAMILY.get(f.step)
    for v in vs.views:
        if family is not None and _STEP_FAMILY.get(lb.STEP.get(v.node)) not in (family, None):
            continue
        M = np.asarray(v.M, dtype=float)
        if np.any((M >= n.lo - 1e-12) & (M <= n.hi + 1e-12)):
            return True
    return False


def configured(judge, o) -> np.ndarray | None:
    """The configuration's values for a printout it identifies (two thirds of its entries, two at least), in the
    printout's own layout; None when its plan identifies no such view."""
    plan = getattr(judge, "plans", {}).get(o.a.id)
    hit = plan.get("hit") if plan else None
    if hit is None or hit.view is None or np.shape(hit.exact) != o.val.shape or hit.n_ok < max(2, 2 * o.val.size / 3):
        return None
    return np.asarray(hit.exact, dtype=float)


# `[100*64]`, `[512 x 64]`: one bracket holding two sizes joined by a times sign, a matrix's shape
_BRACKET_SHAPES = re.compile(r"\[\s*\d+\s*[*x×]\s*\d+\s*\]")


def shape_notes(text: str) -> bool:
    """Two or more matrices' shapes written in brackets on the line (`[100*100] * [100*64] = [100 * 64]`): notes
    on shapes, whose products and equalities are of sizes, not of numbers."""
    return len(_BRACKET_SHAPES.findall(text or "")) >= 2


def spelled(e) -> str:
    """An arithmetic tree written out again, for a finding to name the term it judged (`1536/8192`)."""
    from .. import numbers as nb

    def inner(x) -> str:
        s = spelled(x)
        return f"({s})" if isinstance(x, nb.Op) and x.op in ("+", "*", "/") else s

    if isinstance(e, nb.Lit):
        return e.num.text
    if isinstance(e, nb.Sym):
        return e.text
    if isinstance(e, nb.Vec):
        return "[" + ", ".join(c.text for c in e.cells) + "]"
    if not isinstance(e, nb.Op):
        return str(e)
    if e.op == "+":
        out = spelled(e.args[0])
        for a in e.args[1:]:
            out += f" - {inner(a.args[0])}" if isinstance(a, nb.Op) and a.op == "neg" else f" + {spelled(a)}"
        return out
    if e.op == "*":
        return " × ".join(inner(a) for a in e.args)
    if e.op == "/":
        return f"{inner(e.args[0])}/{inner(e.args[1])}"
    if e.op == "neg":            # (-1536/8192 is -(1536/8192) either way; a sum keeps its brackets)
        a = e.args[0]
        return f"-({spelled(a)})" if isinstance(a, nb.Op) and a.op == "+" else f"-{spelled(a)}"
    if e.op == "sqrt":
        return f"√{inner(e.args[0])}"
    if e.op == "exp":
        return f"e^{inner(e.args[0])}"
    if e.op == "pow":
        return f"{inner(e.args[0])}^{inner(e.args[1])}"
    return f"{e.op}(" + ", ".join(spelled(a) for a in e.args) + ")"
