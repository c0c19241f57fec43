"""The scale an author writes beside the scaled scores: `scores / 2`, `s ÷ 1.4142`, `scores / \\sqrt{64}`,
`scores × 0.5`, `QK^T / 8`.  The operator and its number are in the label, so the scale is read from the words,
not fitted to the printed numbers: it is one more value of the search's scale dimension, which the printed scores
and weights then confirm or not."""

from __future__ import annotations

import ast
import math
import re

from ..readers.pyparse import literal_number, parse_code
from .prepare import Obj

# a division by a number or a square root of one, or a product with a decimal below 1
_DIVIDE = re.compile(r"(?:/|÷|\\div)\s*\{?\s*(√|\\sqrt|sqrt)?\s*[{(]?\s*(\d+(?:\.\d+)?)\s*[})]?\s*\}?\s*$")
_TIMES = re.compile(r"(?:×|\*|·|\\times|\\cdot)\s*(0?\.\d+)\s*$")


def written_scale(label: str) -> float | None:
    """The multiplier a label writes after the scores (0.5 for "scores / 2", 1/8 for "/ \\sqrt{64}"), or None.

    >>> written_scale("scores/2"), written_scale("scores/\\\\sqrt{64}"), written_scale("s×0.25"), written_scale("S")
    (0.5, 0.125, 0.25, None)
    """
    s = re.sub(r"\s*(约等于|≈|=|\\approx)\s*$", "", (label or "").strip())
    m = _DIVIDE.search(s)
    if m:
        x = float(m.group(2))
        x = math.sqrt(x) if m.group(1) else x
        return 1 / x if x > 1 else None
    m = _TIMES.search(s)
    if m:
        x = float(m.group(1))
        return x if 0 < x < 1 else None
    return None


def coded_scale(source: str) -> float | None:
    """The multiplier of the code that computed a printout (the right-hand side, as readers/python.py keeps it):
    `scores / 2`, `scores * 0.5`, `scores / 4 ** 0.5`, `scores / np.sqrt(16)`; None for anything else.

    >>> coded_scale("scores / 16 ** 0.5"), coded_scale("s * 0.25"), coded_scale("q @ k.T")
    (0.25, 0.25, None)
    """
    try:
        tree = parse_code((source or "").strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    e = tree.body
    if not (isinstance(e, ast.BinOp) and isinstance(e.left, ast.Name) and isinstance(e.op, (ast.Div, ast.Mult))):
        return None
    x = literal_number(e.right)
    if x is None or x <= 0:
        return None
    v = 1 / x if isinstance(e.op, ast.Div) else x
    return v if 0 < v < 1 else None


def stated_scale(hint) -> float | None:
    """The multiplier a "scale" or "scale_sqrt" hint states ("divided by 8", "kq_scale = 1/8": 1/8; "scaled by
    √64": 1/8), or None for any other hint or value."""
    if hint.kind not in ("scale", "scale_sqrt"):
        return None
    try:
        x = float(hint.value)
    except (TypeError, ValueError):
        return None
    if x <= 0:
        return None
    return 1 / math.sqrt(x) if hint.kind == "scale_sqrt" else (x if x < 1 else 1 / x)


def carries_its_scale(o: Obj) -> bool:
    """Do the scores' own label or code say the scale is in them already ("Raw scores (with 1/√2):", `s = q @ k.T /
    2`, "scaled scores")?  Then no scale is applied to them again."""
    label = o.a.label or ""
    return bool(written_scale(label) or coded_scale(getattr(o.a, "source", "")) or
                re.search(r"(?i)\bscaled\b", label))


def written_scales(objs: list[Obj]) -> list[tuple[float, str]]:
    """(multiplier, where it is written) for each distinct multiplier written after a name of the scores, or in
    the code that printed them; candidates.py and starts.py make them choices of the scale."""
    out: list[tuple[float, str]] = []
    for o in objs:
        v = coded_scale(getattr(o.a, "source", ""))
        if v is None and not any(n in r.nodes for r in o.refs for n in ("S", "QKt")):
            continue
        v = v if v is not None else written_scale(o.a.label)
        if v is not None and not any(abs(x - v) < 1e-9 for x, _ in out):
            out.append((v, f"{v:.6g} (written at {o.a.place}: {o.a.label.strip()[:30]})"))
    return out
