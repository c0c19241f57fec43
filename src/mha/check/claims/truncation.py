"""Documents that cut digits off instead of rounding: 0.211 printed for 0.21194, 0.844 for 0.84464.

Some authors (and some tools) truncate every printed value.  Judged as rounding, each value whose next digit is 5 or
more looks wrong by one unit of its last digit: false findings by the row.  The convention is the document's, so it
is read from the document: among the printed cells whose rounding and truncation differ, at least MIN_CUT follow
truncation and none follows rounding.  A rounding document shows rounding on about half of such cells, so it is never
taken for a truncating one; a document that truncates gets each printed cell widened by one more unit away from
zero (0.211 stands for [0.2105, 0.212)), and a value that is wrong either way is still found."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..infer import Obj

CUT_OFF = "printed digits are cut off, not rounded (judged as either)"     # the evidence line that says so
MIN_CUT = 3          # cells that only truncation explains, before the document is taken to truncate


def cut_and_rounded(objs: list[Obj], plans: dict[int, Any]) -> tuple[int, int]:
    """(cells only truncation explains, cells only rounding explains) over the arrays matched to a view."""
    cut = rounded = 0
    for o in objs:
        plan = plans.get(o.a.id)
        hit = plan.get("hit") if plan else None
        if hit is None or hit.view is None or o.val is None or o.slices != 1 or \
                np.shape(hit.exact) != o.val.shape:
            continue
        for i, row in enumerate(o.a.rows):
            for j, num in enumerate(row or []):
                if num is None or not num.decimals or num.decimals < 2 or j >= o.val.shape[1]:
                    continue
                way = follows(num, float(hit.exact[i, j]))
                cut += way == "cut"
                rounded += way == "rounded"
    return cut, rounded


def follows(num, x: float) -> str | None:
    """"cut" when the printed number is x with its further digits cut off, "rounded" when it is x rounded, None when
    both give the same digits (or neither does, or x is exact at that precision: 0.49999999 is 0.5)."""
    if not num.decimals or not math.isfinite(x) or not math.isfinite(num.value) or abs(x) > 1e12 or \
            num.decimals > 12:
        return None
    scale = 10 ** num.decimals
    r, t = round(x * scale), math.trunc(x * scale)
    p = round(num.value * scale)
    if r == t or abs(x * scale - r) < 1e-6:
        return None
    return "cut" if p == t else "rounded" if p == r else None


def truncates(objs: list[Obj], plans: dict[int, Any]) -> bool:
    cut, rounded = cut_and_rounded(objs, plans)
    return cut >= MIN_CUT and rounded == 0


def widen(objs: list[Obj]) -> None:
    """Each printed cell stands for its rounding or its truncation: one more unit away from zero."""
    for o in objs:
        if o.val is None or o.lo is None or o.slices != 1 or len(o.a.rows) != o.val.shape[0]:
            continue
        lo, hi = o.lo.copy(), o.hi.copy()
        for i, row in enumerate(o.a.rows):
            for j, num in enumerate(row or []):
                if num is None or not num.decimals or j >= o.val.shape[1] or not math.isfinite(num.value):
                    continue
                unit = 10.0 ** -num.decimals
                if num.value >= 0:
                    hi[i, j] = max(hi[i, j], num.value + unit)
                if num.value <= 0:
                    lo[i, j] = min(lo[i, j], num.value - unit)
        o.lo, o.hi = lo, hi
