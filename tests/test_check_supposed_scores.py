"""Scores the author posits, then a softmax of them that is off: "suppose one row's raw scores are [3, 1, 4]; after
softmax that is about [0.265, 0.013, 0.721]".  The weights are what a score of 0 in place of the 1 would give, so
the slipped-score rule (claims/slippedscore.py) blamed the 1 ("score 2: printed 1; exact 0.0"), a number the author
chose, not worked out (a Chinese ViT note in t229b: "假设某行原始得分为 [..]，则 softmax 后约为 [..]").  Scores
introduced as supposed are givens: the weights after them carry the findings (claims/softmax.py `_SUPPOSED`).
Scores that were worked out can still be the slip.  My own numbers."""

import math

import pytest

S = [3, 1, 4]
BENT = [3, 0, 4]           # what the printed weights are the softmax of


def _softmax(s):
    e = [math.exp(v - max(s)) for v in s]
    return [v / sum(e) for v in e]


def _row(v):
    return "[" + ", ".join(f"{x:.3f}" for x in v) + "]"


@pytest.mark.parametrize("said", [
    "Suppose one row's raw scores are [3, 1, 4]; after softmax that is about {w}, so the third key dominates.",
    "例如，假设某一行的原始得分为 [3, 1, 4]，则 softmax 之后约为 {w}，第三个位置占主导。",
])
def test_weights_after_supposed_scores_carry_the_findings(said):
    from mha.check import check_document
    text = "# Softmax, one row\n\n" + said.format(w=_row(_softmax(BENT))) + "\n"
    errs = check_document(text, fmt="md").errors
    right = _softmax(S)
    assert sorted(f.printed for f in errs) == sorted(f"{x:.3f}" for x in _softmax(BENT))
    assert sorted(round(f.exact, 4) for f in errs) == sorted(round(x, 4) for x in right)


def test_a_worked_score_is_still_the_slip():
    from mha.check import check_document
    text = ("# Softmax, one row\n\nThe scores of the row come out as [3, 1, 4]; after softmax that is about "
            f"{_row(_softmax(BENT))}.\n")
    errs = check_document(text, fmt="md").errors
    assert [(f.printed, f.step) for f in errs] == [("1", "scale")]
