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
