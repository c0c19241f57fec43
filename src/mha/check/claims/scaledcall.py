"""A printout whose code is the softmax of an earlier printout divided by a scale:

    attn_scores                                   # printed in one cell
    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
    attn_weights                                  # printed in a later one

The code names the scores it starts from; the scale is a number (`/ 8`, `/ np.sqrt(2)`) or a size the printouts
do not state (`keys.shape[-1]**0.5` of keys that were never printed).  A stated number is used as it is; an
unstated size is searched (√d, or d, for d up to 1024), and the link then counts only when most of the weights
agree with the softmax of the scaled scores (two thirds of the entries that are not fixed by a mask, and at least
four): the value of the scale is not evidence, the agreement of the other entries is.  The link is judged as
printchain.py judges `softmax(scores)`.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import replace

import numpy as np

from ..infer import Obj
from ..readers.pyparse import literal_number, parse_code

_BACK = 4
_SIZES = range(1, 1025)


def scaled_softmax_of(grids: list[Obj], k: int, agreement, is_softmax) -> tuple[Obj, bool] | None:
    """(the earlier printout scaled as the code says, whether the scale was stated) for printout k, or None.

    agreement(x, y) -> (agreeing live entries, live entries, ...): printchain's comparison of y with softmax(x);
    is_softmax(x, y): its test that y is x's softmax (rows summing to 1, masked entries 0, most entries)."""
    y = grids[k]
    call = _softmax_arg(y.a.source)
    if call is None:
        return None
    name, op, divisor = call
    for x in reversed(grids[max(0, k - _BACK):k]):
        if x.a.label.strip() != name or x.val.shape != y.val.shape or x.slices != y.slices:
            continue
        stated = literal_number(divisor)
        factors = [stated] if stated is not None else _nearest(_searched(divisor), _slope(x, y), op)
        best: tuple[int, Obj] | None = None
        for f in factors:
            if not f or not math.isfinite(f) or f <= 0:
                continue
            c = 1.0 / f if op == "/" else f
            if c > 1.0:
                continue                  # the band of the scores' rounding is taken unscaled: only shrinking is safe
            xs = _scaled(x, c)
            ok, n = agreement(xs, y)[:2]
            if ok >= 4 and 3 * ok >= 2 * n and (best is None or ok > best[0]) and is_softmax(xs, y):
                best = (ok, xs)
        if best is not None:
            return best[1], stated is not None
    return None


def _softmax_arg(source: str) -> tuple[str, str, ast.AST] | None:
    """`softmax(NAME / EXPR, ...)` or `softmax(NAME * EXPR)`: (NAME, the operator, EXPR)."""
    if not source or "softmax" not in source:
        return None
    try:
        node = parse_code(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    fname = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
    if fname != "softmax":
        return None
    arg = node.args[0]
    if not isinstance(arg, ast.BinOp) or not isinstance(arg.op, (ast.Div, ast.Mult)) or \
            not isinstance(arg.left, ast.Name):
        return None
    return arg.left.id, "/" if isinstance(arg.op, ast.Div) else "*", arg.right


def _searched(node: ast.AST) -> list[float]:
    """The scales an unstated size may give: √d when the code takes a square root, else d and √d."""
    text = ast.unparse(node)
    if re.search(r"\*\*\s*0\.5|sqrt", text):
        return [math.sqrt(d) for d in _SIZES]
    return [float(d) for d in _SIZES] + [math.sqrt(d) for d in _SIZES]


def _slope(x: Obj, y: Obj) -> float | None:
    """The factor c that the weights say multiplies the scores: log(y_j / y_0) = c (x_j - x_0) within each row."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ly = np.log(np.where(y.val > 0, y.val, np.nan))
        est = []
        for i in range(x.val.shape[0]):
            ok = np.isfinite(x.val[i]) & np.isfinite(ly[i])
            if ok.sum() < 2:
                continue
            xs, ls = x.val[i][ok], ly[i][ok]
            dx = xs - xs[0]
            keep = np.abs(dx) > 1e-6
            est.extend((ls[keep] - ls[0]) / dx[keep])
    est = [e for e in est if math.isfinite(e)]
    return float(np.median(est)) if est else None


def _nearest(factors: list[float], c: float | None, op: str, k: int = 3) -> list[float]:
    """The k searched factors whose scale is closest to the one the weights imply (none when they imply none)."""
    if c is None or c <= 0:
        return []
    scale = (lambda f: 1.0 / f) if op == "/" else (lambda f: f)
    return sorted(factors, key=lambda f: abs(math.log(scale(f) / c)))[:k]


def _scaled(x: Obj, c: float) -> Obj:
    """The printout x times c, its rounding intervals with it (−∞ stays −∞)."""
    with np.errstate(invalid="ignore"):
        val = np.where(np.isneginf(x.val), -np.inf, x.val * c)
        lo = np.where(np.isneginf(x.lo), -np.inf, x.lo * c)
        hi = np.where(np.isneginf(x.hi), -np.inf, x.hi * c)
    return replace(x, val=val, lo=lo, hi=hi)
