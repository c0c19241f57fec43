"""The likely causes of a wrong gradient, tried as the slips the backward pass invites (gradients.py): the softmax's
D term left out (dS = A ⊙ dA), a masked score given a gradient, the 1/√d_k left out of dQ or dK.  A transposed dK
is the forward's "transposed indices" (causes.py)."""

from __future__ import annotations

import numpy as np

from ..model import View
from ..numbers import Num


class BackwardCauses:
    """Judge methods: the cause of one wrong cell of a gradient."""

    def backward_cause(self, v: View, i: int, j: int, num: Num) -> tuple[str, str] | None:
        t = self.t
        if t is None or t.grads is None or v.variant:
            return None
        b, h, g = v.b or 0, v.h, t.grads
        scale = t.config.effective_scale
        if v.node in ("dS", "dQKt") and h is not None:
            k = 1.0 if v.node == "dS" else scale
            if not np.isfinite(t.S[b, h, i, j]) and num.value != 0:
                return ("a masked entry given a gradient: a masked score influences nothing, its gradient is 0",
                        "masked_gradient")
            if num.contains(float(k * t.A[b, h, i, j] * g.dA[b, h, i, j])):
                return ("missing D term: this is A ⊙ dA, without subtracting D_i = Σ_j A_ij dA_ij", "missing_D")
        if v.node in ("dQ", "dQh", "dK", "dKh") and scale not in (0.0, 1.0):
            if num.contains(float(v.M[i, j]) / scale):
                return ("missing scale: the scores' gradient was not multiplied by the scale 1/√d_k",
                        "missing_scale")
        return None
