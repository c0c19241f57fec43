"""Weights that one changed score would explain, where no slip of the pen turns the printed score into that one.
A page printed its scaled scores right (they follow from its own products) and then wrong weights; the weights are
what `-0.046` in place of `-0.158` would give, so the score was blamed, "the slip is here, not in the weights" (a
two-head walkthrough in t230b, twice).  A score is blamed only when a slip gives it from the one the weights call
for: a digit changed, dropped, added or swapped with its neighbour, the sign or point moved, or a neighbour's value
(claims/slippedscore.py `plausible_slip`).  Otherwise the weights carry the findings.  My own numbers."""

import math


def _softmax(s):
    e = [math.exp(x - max(s)) for x in s]
    return [x / sum(e) for x in e]


def _line(scores, bent):
    w = ", ".join(f"{x:.3f}" for x in _softmax(bent))
    return "# One row\n\nThe scaled scores of the first query give " \
        f"$\\mathrm{{softmax}}([{', '.join(f'{x:.3f}' for x in scores)}]) = [{w}]$.\n"


def _errors(text):
    from mha.check import check_document
    return check_document(text, fmt="md").errors


def test_weights_no_slip_of_the_score_explains_are_the_findings():
    errs = _errors(_line([0.300, 0.100, -0.200], [0.300, 0.100, 0.050]))
    assert errs and all(f.step == "softmax" for f in errs), [f.describe() for f in errs]
    assert "-0.200" not in {f.printed for f in errs}


def test_a_score_one_digit_off_is_still_the_slip():
    errs = _errors(_line([0.300, 0.100, -0.200], [0.300, 0.100, -0.280]))
    assert [(f.printed, f.step) for f in errs] == [("-0.200", "scale")], [f.describe() for f in errs]
