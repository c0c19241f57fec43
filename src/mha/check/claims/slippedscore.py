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

from ..infer.slipped import MIN_OTHERS, SLIPPED_HERE, slipped_score  # noqa: F401 (the claims' imports)
from ..report import Finding
from .common import _simple_kind


def score_finding(num, line: int, cell: int | None, claim: str, got: tuple, weights_line: int,
                  how: str = "the softmax of these scores", step: str = "scale") -> Finding:
    """The one finding on a slipped score (num, printed at line): what the weights of weights_line give it."""
    _, value, lo, hi = got
    told = num.rounded(value)
    whole = math.ceil(min(lo, hi))
    if (num.decimals in (None, 0) or num.text.endswith(".")) and float(num.value).is_integer() and \
            whole <= max(lo, hi):
        told = str(whole)       # a whole score ([2, 5, 1], torch's `4.`) the weights give as a whole number: 4, not
        value = float(whole)    # 4.0012
    elif num.rounded(lo) != num.rounded(hi):
        told += f" (between {num.rounded(lo)} and {num.rounded(hi)}, by the weights' rounding)"
    how = how.format(line=line)
    return Finding(num.line or line, cell, claim, num.text, value, told.split(" ")[0], step,
                   f"the weights printed at line {weights_line} are {how} with this one {told}: {SLIPPED_HERE}",
                   _simple_kind(num, value))


def plausible_slip(num, lo: float, hi: float, row=()) -> bool:
    """Could a slip of the pen have turned the score the weights allow (lo..hi) into the printed one?  One digit
    changed, dropped or added, two neighbouring digits swapped, the sign or the point moved, or a neighbour's value
    copied in its place.  -0.158 for -0.046 is none of these: when the weights call for a score no slip gives,
    the weights are the likelier slip (a page whose scaled scores follow from its own products, t230b)."""
    printed = _digits(num.text)
    lo, hi = min(lo, hi), max(lo, hi)
    values = [lo, (lo + hi) / 2, hi]
    texts = [num.rounded(v) for v in values]
    places = num.decimals if num.decimals is not None else 0     # a whole score ([3, 1, 4]) is written in units
    if 0 <= places <= 12:
        unit = 10.0 ** -places                 # every value of the printed precision the weights allow
        k0, k1 = math.floor(lo / unit + 0.5), math.floor(hi / unit + 0.5)
        texts += [f"{k * unit:.{places}f}" for k in range(k0, min(k1, k0 + 200) + 1)]
    if any(_one_slip(printed, _digits(t)) for t in texts):
        return True
    return any(n is not None and n is not num and n.text != num.text and n.contains(v)
               for n in row for v in (lo, (lo + hi) / 2, hi))


def _digits(text: str) -> str:
    """The digits that carry a slip: no sign, no zeros before the first digit or after the last decimal one
    (torch's `4.` at four decimals is 4, as 4.0000 is)."""
    t = "".join(ch for ch in text if ch.isdigit() or ch == ".")
    whole, _, frac = t.partition(".")
    return (whole.lstrip("0") + frac.rstrip("0")) or "0"


def _one_slip(a: str, b: str) -> bool:
    if a == b:
        return True                       # the sign, or the point, moved
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and
                                  a[diff[1]] == b[diff[0]])
    short, long_ = sorted((a, b), key=len)
    return len(long_) == len(short) + 1 and any(long_[:k] + long_[k + 1:] == short for k in range(len(long_)))
