"""A softmax printed under the name of its argument: `softmax(large_scores) ≈ [0.67, 0.09, 0.24]` after
`large_scores = [2, 0, 1]` and `small_scores = [0.5, 0.2, 0.1]`.  The call names the scores it is of, so it is
paired with the latest array of that name, and with no other one: the scores printed just before it may be
another vector (claims/softmax.py would otherwise pair the weights with their neighbour)."""

from __future__ import annotations

import re

import numpy as np

from ..infer import Obj

_CALL = re.compile(r"\s*(?:[A-Za-z_][\w.]*\.)?softmax\(\s*([A-Za-z_]\w*)\s*(?:,\s*(?:dim|axis)\s*=\s*-?\d+\s*)?\)\s*",
                   re.I)


def argument_name(y: Obj) -> str | None:
    """The variable a label `softmax(name)` is the softmax of."""
    m = _CALL.fullmatch(y.a.label or "")
    return m.group(1) if m else None


def names_another(x: Obj, y: Obj) -> bool:
    """Does y's label name the softmax of a variable other than x?"""
    name = argument_name(y)
    return name is not None and (x.a.label or "").strip() != name


def named_argument(y: Obj, objs: list[Obj], defines: list | None = None) -> Obj | None:
    """The latest array before y labelled as its softmax names, of its shape, scores that are all finite; None when
    code gives the name new values after that array was printed (`x = torch.arange(...)`, `x[~mask] = 0` in the
    softmax's own cell: the printed x is stale, and the values the call takes are printed nowhere).  defines: the
    document's code assignments (hints of kind "define")."""
    name = argument_name(y)
    if name is None or y.val is None:
        return None
    before = [o for o in objs if o is not y and o.val is not None and (o.a.label or "").strip() == name and
              (o.a.place.cell or 0, o.a.line) <= (y.a.place.cell or 0, y.a.line) and o.val.shape == y.val.shape
              and np.isfinite(o.val).all()]
    if not before:
        return None
    x = before[-1]
    for h in defines or []:
        target = re.match(r"\s*([A-Za-z_]\w*)", h.value[0])
        if target and target.group(1) == name and x.a.place.run_order < h.place.run_order < y.a.place.run_order:
            return None
    return x
