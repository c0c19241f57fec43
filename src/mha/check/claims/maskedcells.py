"""Which cells of a printed matrix say nothing of which matrix it is: those a mask put there, and those the
configuration does not give at all; and a mask printed as a buffer of flags (claims/array.py's identity checks)."""

from __future__ import annotations

import numpy as np

from ..infer import Hit, Obj
from ..infer.starts import UNKNOWN


def masked_cells(o: Obj, hit: Hit) -> np.ndarray | None:
    """The cells that agree only because a mask put them there (0 weights, -∞ scores): any matrix printed after a
    causal mask has them, so they are no evidence of which matrix it is; its live cells must identify it.  So too
    cells the configuration does not give at all (a score its start hides under -∞: infer/starts.py's UNKNOWN
    radius), which agree with any number."""
    if hit.view is None or o.val is None or hit.exact is None or np.shape(hit.exact) != o.val.shape or \
            np.shape(hit.ok) != o.val.shape:
        return None
    try:
        unknown = np.broadcast_to(np.asarray(hit.band, dtype=float), o.val.shape) >= UNKNOWN / 10
    except ValueError:
        unknown = np.zeros(o.val.shape, dtype=bool)
    if hit.view.node not in ("A", "E", "S"):
        return hit.ok & unknown if unknown.any() else None
    ex = np.asarray(hit.exact, dtype=float)
    return hit.ok & ((ex == 0) | np.isneginf(ex) | unknown)


def mask_buffer(o: Obj, hit: Hit) -> bool:
    """torch.triu(ones) or a registered buffer set to 2 for a state_dict demonstration: every disagreeing cell is a
    finite nonzero flag where the mask has -∞."""
    if hit.view is None or hit.view.node != "mask":
        return False
    bad = ~hit.ok
    with np.errstate(invalid="ignore"):
        return bool(bad.any() and np.all(np.isneginf(hit.exact[bad])) and np.all(np.isfinite(o.val[bad]))
                    and np.all(o.val[bad] != 0))
