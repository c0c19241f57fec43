"""What a printed weight's name and width say (helpers of candidates.py): a second example's weight numbered like its
input, the width a weight projects to, key/value heads fewer than query heads, a chain naming other heads' weights."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .. import labels as lb
from .prepare import Obj


_WHOLE_X = re.compile(r"\s*[Xx]_?\{?(\d)\}?\s*")          # X2: a second example's input, a whole matrix
_SUFFIX = re.compile(r"(\d+)\}?\)?\s*$")


def example_numbered(o: Obj, objs: list[Obj]) -> bool:
    """A weight whose number is also an input matrix's (`Wv2` beside `X2 = [[..], ..]`): the second example's
    weight, not a second head's."""
    m = _SUFFIX.search(o.a.label or "")
    return m is not None and any(
        x.val is not None and x.val.shape[0] > 1 and (w := _WHOLE_X.fullmatch(x.a.label or "")) and
        w.group(1) == m.group(1) for x in objs)


def projected_width(w: Any, d_in: int | None) -> int | None:
    if isinstance(w, str):
        return d_in if w == "identity" else None
    w = np.asarray(w)
    return w.shape[0] * w.shape[2] if w.ndim == 3 else w.shape[-1]


def kv_heads(m: dict[str, Any], H: int) -> int | None:
    """K/V heads from the widths: a W_K narrower than W_Q means fewer key/value heads (GQA, MQA)."""
    if "Q" in m:
        qw, kw = np.asarray(m["Q"]).shape[-1], np.asarray(m["K"]).shape[-1]
    else:
        d_in = np.asarray(m["X"]).shape[-1]
        qw, kw = projected_width(m["W_Q"], d_in), projected_width(m["W_K"], d_in)
        if isinstance(m["W_Q"], np.ndarray) and m["W_Q"].ndim == 3 and isinstance(m["W_K"], np.ndarray) \
                and m["W_K"].ndim == 3:
            return m["W_K"].shape[0] if H % m["W_K"].shape[0] == 0 else None
    if not qw or not kw or qw % H:
        return None
    dk = qw // H
    if kw < qw and kw % dk == 0 and H % (kw // dk) == 0:
        return kw // dk
    return None


def names_other_heads(o: Obj, role: str) -> bool:
    """Does the chain that prints head 1's weight name another head's as the same (`W_V^{(1)} = W_V^{(2)} = ...`)?"""
    for text in o.a.labels or []:
        r = lb.parse_label(text)
        if r is not None and role in r.nodes and r.raw_head is not None and r.raw_head != 1:
            return True
    return False
