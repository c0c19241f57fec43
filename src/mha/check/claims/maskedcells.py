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


def live_under_mask(o: Obj, hit: Hit) -> bool:
    """Exponentials printed as [2.7, 1.6, 1, 1] where the mask hides the last two keys: every cell that disagrees is
    one the mask sets to 0, printed live and nonzero (two or more), and the live cells agree.  That is the step worked
    without the mask (a page showing the wrong way to mask, beside the right one), not two slips."""
    if hit.view is None or hit.view.node != "E" or o.val is None or hit.exact is None or \
            np.shape(hit.exact) != o.val.shape or np.size(hit.ok) != o.val.size:
        return False
    bad = ~np.asarray(hit.ok, dtype=bool).reshape(o.val.shape)
    hidden = np.asarray(hit.exact, dtype=float) == 0
    return bool(bad.sum() >= 2 and hidden[bad].all() and (o.val[bad] > 0).all() and (~bad & ~hidden).sum() >= 2)
