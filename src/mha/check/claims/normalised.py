"""Weights that are the scores over their row's sum, printed beside the scores before a page introduces the softmax
(`attn_scores_2: [0.51, 0.45, 0.69]` over `weights_tmp: [0.3091, 0.2727, 0.4182]`): a normalisation, not a softmax
pair, and judged as that normalisation (claims/softmax.judge_softmax_pair)."""

from __future__ import annotations

import numpy as np


def over_their_sum(c) -> list | None:
    """When the printed weights are the scores over their row's sum (a normalisation, not the softmax), all but at
    most one entry of the whole pair within the weight's rounding (and at least two others in that entry's row):
    each weight as (printed, its line, the value it should be or None when it holds); else None."""
    out, off = [], []
    for i, (xr, yr) in enumerate(zip(c.x.a.rows, c.y.a.rows)):
        if not xr or not yr or len(xr) != len(yr) or any(n is None for n in xr + yr):
            continue
        total = sum(n.value for n in xr)
        if total <= 0 or any(n.value < 0 for n in xr):
            return None
        for x, w in zip(xr, yr):
            ok = w.contains(x.value / total, slack=w.half)
            out.append((w, w.line or c.y.a.row_line(i), None if ok else x.value / total))
            if not ok:
                off.append(len(yr))
    if not out or len(off) > 1 or (off and off[0] < 3):
        return None
    softmax_too = all(w.contains(float(p)) for xr, yr in zip(c.x.a.rows, c.y.a.rows) if xr and yr and
                      len(xr) == len(yr) and None not in xr + yr for w, p in zip(yr, _softmax_row(xr)))
    return None if softmax_too else out


def _softmax_row(xr) -> np.ndarray:
    x = np.array([n.value for n in xr], dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum()
