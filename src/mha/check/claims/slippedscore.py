"""One slipped score under a row of weights: `softmax([1.0, 2.5, 3.0, 0.5]) = [0.0854, 0.2321, 0.6308, 0.0518]`.

A wrong score moves every weight of its row, so the row's weights all disagree with the scores printed beside them,
and judging weight by weight gives one finding per weight, each blaming a number that is right.  But the weights
still say what the scores were: the softmax keeps the differences of the scores in the ratios of the weights
(log w_k - s_k is the same for every k).  When all the scores but one agree with the weights that way, and the
softmax of the scores with that one put back (log w_j minus the common offset) gives every printed weight, the
slip is that one score, and it is one finding, on the score.

Identity before verdict: the weights must be printed to three decimals or more and not all alike (two decimals say
too little of the scores), the other scores must be at least two and not all alike (their ratios are the
evidence: equal scores under equal weights fit any rescaling of the row, a normalisation as well), every weight must
then hold within its rounding and the scores' rounding, the weight of the slipped score must be printed with a
digit that counts (not 0), the score the weights allow must lie in a range far narrower than the slip, and only one
score may explain the row.  Otherwise nothing is said here: the weights may as well be wrong themselves.
"""

from __future__ import annotations

import math

import numpy as np

from ..report import Finding
from .common import _simple_kind

MIN_OTHERS = 2          # the scores besides the slipped one whose ratios identify the row
MAX_WEIGHT_HALF = 5e-4  # the weights must be printed to three decimals at least (0.0005 their half-unit)
SLIPPED_HERE = "the slip is here, not in the weights"
SHARP = 3               # the slip must be this many times the half-range of scores the weights allow


def _softmax(s: np.ndarray) -> np.ndarray:
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
        p = _softmax(t)
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
        if np.all(np.abs(_softmax(u) - w) <= wh * (1 + 1e-9) + band + 1e-12):
            return True
    return False


def score_finding(num, line: int, cell: int | None, claim: str, got: tuple, weights_line: int,
                  how: str = "the softmax of these scores", step: str = "scale") -> Finding:
    """The one finding on a slipped score (num, printed at line): what the weights of weights_line give it."""
    _, value, lo, hi = got
    told = num.rounded(value)
    whole = math.ceil(min(lo, hi))
    if num.decimals is None and float(num.value).is_integer() and whole <= max(lo, hi):
        told = str(whole)       # a whole score ([2, 5, 1]) the weights give as a whole number: 4, not 4.0012
    elif num.rounded(lo) != num.rounded(hi):
        told += f" (between {num.rounded(lo)} and {num.rounded(hi)}, by the weights' rounding)"
    how = how.format(line=line)
    return Finding(num.line or line, cell, claim, num.text, value, told.split(" ")[0], step,
                   f"the weights printed at line {weights_line} are {how} with this one {told}: {SLIPPED_HERE}",
                   _simple_kind(num, value))
