"""The backward pass as one more dimension of the search: which upstream gradient a document's gradients follow.

A document that names a gradient (dQ, ∂L/∂Q, Q.grad, 梯度: check/gradients.py) is a backward worked example.  Its
upstream gradient is one of: L = sum of Y (dY all ones), a printed dY, L = ½‖Y − T‖² with a printed target T, or,
when the target is only described ("the target is the identity"), the identity or zeros.  Each is a candidate like
a scale or a mask, scored by the gradients it explains; the forward choices are made first, on the forward numbers.
"""

from __future__ import annotations

import numpy as np

from ..gradients import GRAD_STEP
from .prepare import Obj

Option = tuple[object, str, frozenset, float]       # value, label, the objects it takes as printed, cost
NONE = (None, "no backward pass", frozenset(), 0.0)


def is_backward(objs: list[Obj]) -> bool:
    """Does the document print a gradient (an array named by a gradient's name)?"""
    return any(n in GRAD_STEP and n != "target" for o in objs if o.val is not None for r in o.refs for n in r.nodes)


def upstream_options(objs: list[Obj], shape: tuple[int, ...] | None) -> list[Option]:
    """The upstream gradients to try; shape is Y's ([B,] T, d_out) under the candidate, when it is known."""
    out: list[Option] = [NONE, ({"loss": "sum"}, "L = sum of Y", frozenset(), 0.1)]
    for o in objs:
        if o.val is None or o.slices != 1 or o.ref is None or not np.isfinite(o.val).all():
            continue
        # a rounded printed dY is an intermediate (Y − T rounded): an exact rule that explains as much comes first
        rounded = 0.5 if any(n.decimals for n in o.a.numbers) and not np.allclose(o.val, np.round(o.val)) else 0.0
        if o.ref.nodes[0] == "dY" and o.ref.row is None:
            out.append(({"dY": o.val}, f"dY printed at {o.a.place}", frozenset([o.a.id]), rounded))
        elif o.ref.nodes == ("target",):
            out.append(({"target": o.val}, f"L = ½‖Y − T‖², T printed at {o.a.place}", frozenset([o.a.id]),
                        0.05 + rounded))
    if shape is not None and shape[-2] == shape[-1]:
        eye = np.broadcast_to(np.eye(shape[-1]), shape).copy()
        out.append(({"target": eye}, "L = ½‖Y − I‖² (target I)", frozenset(), 0.3))
        out.append(({"dY": eye}, "dY = I", frozenset(), 0.35))
    if shape is not None:
        out.append(({"target": np.zeros(shape)}, "L = ½‖Y‖² (target 0)", frozenset(), 0.4))
    return out
