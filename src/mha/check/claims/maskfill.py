"""A printout with a mask's fill where the configuration has a live score: `[ 2.e+00 -1.e+09 -1.e+00]`.

People print scores after filling masked places with -1e9, -1e4, -10000 or -inf (a padding mask, a causal mask
the inferred configuration does not have, one position masked by hand).  A fill is never a slip for a finite score
(no one miswrites 0.5 as -1e9): the object is the masked copy of what it matches, and judging it against the
unmasked trace would call the mask itself wrong.  It is reported as not checked, once.
"""

from __future__ import annotations

import numpy as np

from ..infer import Hit, Obj
from ..report import NotChecked

FILL = -1e4          # at or below: a mask's fill (-1e4, -10000, -1e9, -inf), as claims/array.py reads it


class MaskFills:
    """Judge methods: objects whose disagreeing cells include a mask's fill."""

    def mask_fill_cells(self, o: Obj, hit: Hit) -> int:
        """How many disagreeing cells print a mask's fill where the trace has a live value."""
        if o.val is None or hit is None or hit.exact is None or np.shape(hit.ok) != o.val.shape or \
                np.shape(hit.exact) != o.val.shape:
            return 0
        with np.errstate(invalid="ignore"):
            ex = np.asarray(hit.exact, dtype=float)
            fill = ~hit.ok & (o.val <= FILL) & np.isfinite(ex) & (ex > FILL)
        return int(fill.sum())

    def not_checked_mask_fill(self, o: Obj, what: str) -> None:
        self.not_checked.append(NotChecked(o.a.line, o.a.place.cell, what, "a mask's fill (-1e9, -inf) stands where "
                                           "the inferred configuration has a live score: the masked copy of what "
                                           "it matches, under a mask the configuration does not apply"))
