"""What the claim modules share: how a view is named in a finding, the usual slip of one number, an entry's band."""

from __future__ import annotations

import math
import re

import numpy as np

from ..infer import Hit
from ..model import View
from ..numbers import Num
from ..objects import Chain
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
    return s


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
    text = re.sub(r"\s+([_^])", r"\1", c.text)
    return re.sub(r"([_^])\{([^{}\s]*)\}", r"\1\2", text)[:80]
