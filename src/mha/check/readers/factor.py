"""A number written before a matrix it multiplies, as the whole value of a name: `W_O = \\frac{1}{2}\\begin{bmatrix}
2 & 0 \\\\ 0 & 2 \\end{bmatrix}`, `W = \\tfrac{1}{\\sqrt{2}}[...]`, `A = 0.5 [...]`.  The name is the product, so the
matrix is read scaled (its entries times the factor) under that name.  (Where the chain goes on, `S = \\frac{1}{2}
[M] ≈ [M']`, the later array is the product and M stays an unnamed factor: statements.record.)"""

from __future__ import annotations

import math
import re

from .. import numbers as nb
from ..objects import Array

_FRAC = re.compile(r"^\\[dt]?frac\s*\{?\s*(\d+(?:\.\d+)?)\s*\}?\s*\{\s*(\\sqrt\s*\{?\s*)?(\d+(?:\.\d+)?)\s*\}?\s*\}?$|"
                   r"^\\[dt]?frac\s*(\d)(\d)$")
_SLASH = re.compile(r"^(\d+(?:\.\d+)?)\s*/\s*(√|\\sqrt\s*\{?|sqrt\()?\s*(\d+(?:\.\d+)?)\s*[})]?$")
_PLAIN = re.compile(r"^\d*\.\d+$")


def leading_factor(text: str) -> float | None:
    """The value of a factor written before a matrix (½, 1/√2, 0.5), or None when the text is not one."""
    t = text.strip().replace("\\left", "").replace("\\right", "").strip("() ")
    m = _FRAC.match(t)
    if m:
        if m.group(4):
            num, root, den = m.group(4), None, m.group(5)
        else:
            num, root, den = m.group(1), m.group(2), m.group(3)
        d = math.sqrt(float(den)) if root else float(den)
        return float(num) / d if d else None
    m = _SLASH.match(t)
    if m:
        d = math.sqrt(float(m.group(3))) if m.group(2) else float(m.group(3))
        return float(m.group(1)) / d if d else None
    if _PLAIN.match(t):
        return float(t)
    return None


def scale_array(a: Array, f: float, factor_text: str) -> None:
    """Every entry of `a` times f, in place; an exact entry stays exact, a rounded one keeps its interval scaled."""
    for r, row in enumerate(a.rows):
        if row is None:
            continue
        for c, n in enumerate(row):
            if n is None:
                continue
            v = n.value * f
            lo, hi = sorted((n.lo * f, n.hi * f))
            if n.exact:                      # ½ · 2 = 1, 1/√2 · 1: exact, as given
                a.rows[r][c] = nb.Num(v, f"{v:.10g}", v, v, n.line, None)
            else:
                a.rows[r][c] = nb.Num(v, f"{factor_text}·{n.text}", lo, hi, n.line, n.decimals)
