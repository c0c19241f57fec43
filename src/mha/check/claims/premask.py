"""Scores printed before the causal mask.  Authors of causal examples print the scaled scores in full first and the
masked copy after: above the diagonal the first printout holds the live scores q_i·k_j·scale, where the trace's S
holds -∞.  Compared with S, those cells can only disagree, so a slip anywhere in that printout was never judged
(the object was "the same matrix before or after the mask").  Compared with the scores before the mask, every cell
can be judged; the identity evidence is the same as for any matrix: most of its cells, live and masked, match."""

from __future__ import annotations

import numpy as np

from ..infer import Hit, Obj
from ..infer.match import within
from ..model import View


def premask_hit(t, vs, o: Obj, hit: Hit) -> Hit | None:
    """The object against the scores before the mask, when it is a full printout of S whose every cell the mask
    sets to -∞ is printed as a finite live score (not -∞, not a large negative fill); None otherwise."""
    v = hit.view
    if t is None or v is None or v.node != "S" or o.slices != 1 or o.val is None:
        return None
    if hit.how == "row" and hit.index is not None and o.val.shape == (1, v.M.shape[1]):
        return _premask_row(t, vs, o, hit)    # "scaled scores, row 2: [1.414, 2.828, 1.414]" before the mask
    if hit.how != "full":
        return None
    masked = np.isneginf(v.M)
    if not masked.any() or o.val.shape != v.M.shape:
        return None
    printed = o.val[masked]
    if not np.all(np.isfinite(printed)) or np.any(printed <= -1e4):
        return None                       # printed after the mask (its fill): the masked view holds
    raw = _qkt(vs, v)
    if raw is None:
        return None
    scale = float(t.config.effective_scale)
    live = raw.M * scale
    if np.all(printed == 0) and not np.all(live[masked] == 0):
        return None                       # zeros where the live scores are not: a fill of zeros after the mask
    with np.errstate(invalid="ignore"):
        if not np.allclose(live[~masked], v.M[~masked], rtol=1e-9, atol=1e-12):
            return None                   # S is not the scaled QKᵀ where it is live (a bias, ALiBi): no reading
    M = np.where(masked, live, v.M)
    band = np.broadcast_to(np.asarray(v.band, dtype=float), M.shape).copy()
    raw_band = np.broadcast_to(np.asarray(raw.band, dtype=float), M.shape)
    band[masked] = raw_band[masked] * scale
    band = np.where(np.isfinite(band), band, 0.0)
    ok = within(o.lo, o.hi, M, band)
    if ok[masked].sum() < masked.sum() - 1:
        return None                       # the masked cells are not the live scores (another fill): no reading
    view = View("S", v.b, v.h, M, band, variant="premask")
    return Hit(view, "full", None, ok, M, band)


def _premask_row(t, vs, o: Obj, hit: Hit) -> Hit | None:
    """One printed row of the scores before the mask: against that row of the scaled Q Kᵀ, when the row has masked
    cells, every one of them printed as a finite live score, and the live cells agree with S."""
    v, i = hit.view, hit.index
    row = v.M[i]
    masked = np.isneginf(row)
    printed = o.val[0]
    if not masked.any() or not np.all(np.isfinite(printed[masked])) or np.any(printed[masked] <= -1e4):
        return None
    raw = _qkt(vs, v)
    if raw is None:
        return None
    scale = float(t.config.effective_scale)
    scaled = raw.M * scale                                 # the scores before the mask, every row
    scaled_band = np.broadcast_to(np.asarray(raw.band, dtype=float), scaled.shape) * scale
    live = scaled[i]
    with np.errstate(invalid="ignore"):
        if not np.allclose(live[~masked], row[~masked], rtol=1e-9, atol=1e-12):
            return None
    band = np.where(np.isfinite(scaled_band[i]), scaled_band[i], 0.0)[None, :]
    ok = within(o.lo, o.hi, live[None, :], band)
    if ok[0][masked].sum() < masked.sum():
        return None                       # the masked cells are not the live scores: no reading
    view = View("S", v.b, v.h, np.where(np.isneginf(v.M), scaled, v.M), scaled_band, variant="premask")
    return Hit(view, "row", i, ok, live[None, :], band)


def live_score(t, vs, v: View | None, i: int, j: int) -> float | None:
    """The scaled score at (i, j) of the view S before the causal mask covers it (Q Kᵀ there times the scale), for a
    printout judged cell by cell whose masked cells are not all live scores (premask_hit gives no reading); None when
    the view is no such score."""
    raw = _qkt(vs, v) if t is not None and v is not None and v.node == "S" else None
    if raw is None:
        return None
    return float(raw.M[i, j] * float(t.config.effective_scale))


def _qkt(vs, v: View) -> View | None:
    """The unscaled Q Kᵀ of the view's head, in the view's shape; None when the views hold none."""
    raw = vs.get("QKt", v.b, v.h) if vs is not None else None
    return raw[0] if raw and np.shape(raw[0].M) == np.shape(v.M) else None
