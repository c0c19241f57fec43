"""The scale a written softmax was taken under, read off its printed weights: softmax(scores / √d) for a whole d.
Rows written `[scores] → [weights]` (which scales they fit, document-wide) and weights printed after masked scores
(the d most of their rows give) are judged under it (claims/softmax.py)."""

from __future__ import annotations

import math

import numpy as np


def _arrow_rows(arrays: list) -> list[tuple[bool, int | None]]:
    """Each `[scores] → [weights]` row of the document: (a softmax row of the scores as written, within its
    rounding, but for at most one entry of a row of three or more, which is then a slip in a softmax row; the whole
    d for which it is the softmax of the scores divided by √d, or None)."""
    out = []
    for y in arrays:
        if not y.softmax_arrow or y.softmax_of is None:
            continue
        x = np.array([n.value for n in y.softmax_of.rows[0]], dtype=float)
        row = y.rows[0]
        e = np.exp(x - x[np.isfinite(x)].max())
        p = e / e.sum()
        fits = sum(n.contains(float(v)) for n, v in zip(row, p))
        plain = fits == len(row) or (len(row) >= 3 and fits >= 2 and fits >= len(row) - 1)
        out.append((plain, unscaled_root(x, row)))
    return out


def arrow_summary(arrays: list) -> tuple[bool, list[int]]:
    """(more than half of the document's arrow rows are softmax rows, of the scores as written or over √d: the arrow
    means the softmax, so a row that does not fit is a slip, not another step; the whole d of the rows that are
    softmax(scores / √d), the scales to try for every arrow row)."""
    rows = _arrow_rows(arrays)
    fit = 2 * sum(plain or d is not None for plain, d in rows) > len(rows)
    return fit, sorted({d for plain, d in rows if d is not None and not plain})


def masked_root(c) -> int | None:
    """The whole d (2 to 4096) for which softmax(scores / √d) gives the printed weights of most rows with two or more
    live entries (at least two rows, and no other d given as often): the scale applied to masked scores printed
    before it.  Each row is read on its live entries only (the -∞ ones are its 0s)."""
    roots: list[int] = []
    rows = 0
    for xr, yr in zip(c.x.a.rows, c.y.a.rows):
        if xr is None or yr is None or any(n is None for n in xr + yr):
            continue
        live = [k for k, n in enumerate(xr) if math.isfinite(n.value)]
        if len(live) < 2:
            continue
        rows += 1
        d = unscaled_root(np.array([xr[k].value for k in live], dtype=float), [yr[k] for k in live],
                           max(xr[k].half for k in live))
        if d is not None:
            roots.append(d)
    if not roots:
        return None
    best = max(set(roots), key=roots.count)
    n = roots.count(best)
    if n < 2 or 2 * n <= rows or any(roots.count(d) == n for d in set(roots) - {best}):
        return None
    return best


def unscaled_root(x: np.ndarray, row, half: float = 0.0) -> int | None:
    """d when every printed weight is softmax(x / √d) within its rounding, for a whole d from 2 to 4096: the
    written scores are the raw ones, and the weights beside them were computed after the scale.  The scale is read
    off the printed weights (log p_j - log p_k = (x_j - x_k) / √d for the two farthest scores) and the whole d
    near it tried.  Scores printed rounded (half a unit `half`) move each weight by up to 2·p·half/√d: the room a
    weight worked from the unrounded scores has (0.2758 where the printed scores give 0.275853)."""
    nums = list(row or [])
    if any(n is None for n in nums) or not np.isfinite(x).all() or np.ptp(x) == 0 or \
            any(n.value <= 0 for n in nums):
        return None
    j, k = int(np.argmax(x)), int(np.argmin(x))
    c = (math.log(nums[j].value) - math.log(nums[k].value)) / (x[j] - x[k])
    if c <= 0:
        return None
    guess = 1 / (c * c)                     # the weights' rounding moves it by a few percent at most
    tries = range(max(2, int(guess * 0.9) - 1), min(4096, int(guess * 1.1) + 1) + 1)
    # first every weight within its rounding; then all but one, that one a unit of its last digit off (0.5762 for
    # softmax([1, 1, 2]) = 0.57612: the scale is still what explains the row, the unit is a rounding slip of its own)
    for units in (0, 1):
        for d in tries:
            z = x / math.sqrt(d)
            e = np.exp(z - z.max())
            q = e / e.sum()
            off = [not n.contains(float(v), slack=2 * float(v) * half / math.sqrt(d)) for n, v in zip(nums, q)]
            if sum(off) <= units and all(n.contains(float(v), slack=2 * float(v) * half / math.sqrt(d) + 2 * n.half)
                                         for n, v in zip(nums, q)) and (units == 0 or len(nums) >= 3):
                return d
    return None
