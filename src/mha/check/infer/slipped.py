"""The one slipped score under a row of printed weights, found from the weights themselves (the softmax keeps the
differences of the scores in the ratios of the weights): the arithmetic of claims/slippedscore.py, which says when
such a score is named, and of the repair of a start's slipped cell (infer/search.py)."""

from __future__ import annotations

import math

import numpy as np

MIN_OTHERS = 2          # the scores besides the slipped one whose ratios identify the row
MAX_WEIGHT_HALF = 5e-4  # the weights must be printed to three decimals at least (0.0005 their half-unit)
SLIPPED_HERE = "the slip is here, not in the weights"
SHARP = 3               # the slip must be this many times the half-range of scores the weights allow


def row_softmax(s: np.ndarray) -> np.ndarray:
    """The softmax of one row of scores (entries of -∞ get 0)."""
    m = s[np.isfinite(s)].max()
    e = np.where(np.isfinite(s), np.exp(s - m), 0.0)
    return e / e.sum()


_FACTORS = np.geomspace(0.02, 50.0, 4001)      # the scales tried for the whole row (steps of 0.2%)


def _rescaled_fits(s: np.ndarray, h: np.ndarray, w: np.ndarray, wh: np.ndarray) -> bool:
    """Does softmax(c · s) give every printed weight for some scale c (a temperature, a √d left out or put in)?
    Then a score moved alone is no better an account of the row than the row scaled whole."""
    fin = np.isfinite(s)
    if fin.sum() < 2:
        return False
    t = np.where(fin, s, 0.0)[None, :] * _FACTORS[:, None]
    t = np.where(fin[None, :], t - t[:, fin].max(axis=1, keepdims=True), -np.inf)
    e = np.exp(t)
    p = e / e.sum(axis=1, keepdims=True)
    room = 2 * wh[None, :] + 1.25 * p * (_FACTORS[:, None] * h[None, :]) + 1e-12
    return bool(np.any(np.all(np.abs(p - w[None, :]) <= room, axis=1)))


def slipped_score(s: np.ndarray, s_half: np.ndarray, w: np.ndarray, w_half: np.ndarray,
                  scale: float = 1.0, min_others: int = MIN_OTHERS) -> tuple[int, float, float, float] | None:
    """The one score of a row whose change makes softmax(scale · s) give every printed weight: (its index, the
    score the weights give, and the least and greatest score they allow), in the row's own units (before the
    scale); None when no single score, or more than one, explains the row, or when the row holds as printed."""
    s = np.asarray(s, float) * scale
    h = np.asarray(s_half, float) * abs(scale)
    w, wh = np.asarray(w, float), np.asarray(w_half, float)
    if s.shape != w.shape or s.size < min_others + 1 or not np.isfinite(w).all() or (w < 0).any() or \
            wh.max(initial=0.0) > MAX_WEIGHT_HALF * (1 + 1e-9) or np.ptp(w) <= 2 * wh.max(initial=0.0):
        return None             # weights of two decimals or fewer say too little of the scores; equal ones nothing
    fin = np.isfinite(s)
    if _rescaled_fits(s, h, w, wh):
        return None             # the whole row under another scale gives the weights ([2, 2, 4] for [1, 1, 2])
    got = []
    for j in range(s.size):
        others = [k for k in range(s.size) if k != j and fin[k] and w[k] - wh[k] > 0]
        if not fin[j] or len(others) < min_others or w[j] - wh[j] <= 0 or \
                np.ptp(s[others]) <= 2 * float(h.max(initial=0.0)) + 1e-12:
            continue            # other scores all alike say nothing of the scale between scores and weights
        c = float(np.mean([math.log(w[k]) - s[k] for k in others]))
        # the weights' own rounding moves each offset by up to wh/w, and so the common one
        drift = float(np.mean([wh[k] / (w[k] - wh[k]) for k in others]))
        t = s.copy()
        t[j] = math.log(w[j]) - c
        p = row_softmax(t)
        band = 1.25 * np.abs(np.diag(p) - np.outer(p, p)) @ np.where(np.arange(s.size) == j, 0.0, h)
        if np.all(np.abs(p - w) <= 2 * wh + 2 * p * drift + band + 1e-12):
            lo, hi = math.log(w[j] - wh[j]) - c - drift, math.log(w[j] + wh[j]) - c + drift
            # the slip, less the printed score's own rounding, against the room the evidence leaves: the range the
            # weights allow, or the rounding of the other scores that fixed the offset
            room = max((hi - lo) / 2, float(h.max(initial=0.0)), drift)
            if abs(s[j] - t[j]) - h[j] > SHARP * room and _reproduced(t, j, lo, hi, w, wh, band):
                got.append((j, t[j] / scale, min(lo, hi) / scale, max(lo, hi) / scale))
    return got[0] if len(got) == 1 else None


def _reproduced(t: np.ndarray, j: int, lo: float, hi: float, w: np.ndarray, wh: np.ndarray, band: np.ndarray) -> bool:
    """Does some value of score j in the range the weights allow give every printed weight within its own rounding
    (and the other scores')?  Weights of one significant digit leave the offset loose enough to pass the test
    above for a score that gives none of them as printed ([10, 15, 8, 10.5] for [0.006, 0.982, 0.001, 0.011]
    gives 0.0066 for 0.006): then no single score is the slip."""
    for x in np.linspace(min(lo, hi), max(lo, hi), 201):
        u = t.copy()
        u[j] = x
        if np.all(np.abs(row_softmax(u) - w) <= wh * (1 + 1e-9) + band + 1e-12):
            return True
    return False
