"""A softmax worked the short way: exponentials, their sum said in words, and the weights that are their shares, on
one line (claims/expshares.py), in answers that each work their own small example (a sum slip there is not
withdrawn because the answer's own reading takes the rest of its line as right)."""

import pytest

from mha.check import check_document

ANSWERS = """# Answers

**Q1.** Scores $1.5, 0.5, -0.5$. Exponentials $4.482, 1.649, 0.607$, sum 6.738. Weights $0.665, 0.245, 0.090$.

**Q2.** With the logits $[2, 1, 0]$ at $\\tau = 1$: exponentials $7.389, 2.718, 1$, sum 11.107, probabilities $0.665, 0.245, 0.090$. At $\\tau = 0.5$ the logits become $[4, 2, 0]$: exponentials $54.598, 7.389, 1$, sum 62.987, probabilities $0.867, 0.117, 0.016$.
"""


def test_answers_worked_the_short_way_hold():
    r = check_document(ANSWERS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("find, replace, line, printed", [
    ("sum 6.738", "sum 6.783", 3, "6.783"),                     # the sum said after the exponentials
    ("$0.665, 0.245, 0.090$.\n\n", "$0.665, 0.254, 0.090$.\n\n", 3, "0.254"),   # a weight that is not its share
    ("sum 62.987", "sum 62.897", 5, "62.897"),                  # the second sum of a line with two
])
def test_a_slip_in_a_sum_or_a_share_is_found_on_its_line(find, replace, line, printed):
    assert find in ANSWERS
    r = check_document(ANSWERS.replace(find, replace, 1), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(line, printed)], [f.describe() for f in r.errors]


def test_weights_of_another_row_are_not_judged_as_these_exponentials_shares():
    """Exponentials of one row, then the weights of another: no entry is its exponential's share, so none is
    judged (the row is not identified as theirs)."""
    text = ANSWERS.replace("Weights $0.665, 0.245, 0.090$", "Weights $0.212, 0.212, 0.576$")
    assert not check_document(text, fmt="md").errors


def test_a_sum_of_exponentials_said_after_a_paired_list_is_judged():
    text = ("With $q = (1, 0)$, the keys $k_1 = (1, 0)$, $k_2 = (0, 1)$, $k_3 = (1, 1)$ and no scaling, the scores "
            "are $1, 0, 1$; then $e^{1}, e^{0}, e^{1} = 2.718, 1, 2.718$, summing to $6.436$, so the weights are "
            "$0.422, 0.155, 0.422$.\n")
    assert not check_document(text, fmt="md").errors
    bad = check_document(text.replace("$6.436$", "$6.463$"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(1, "6.463")], [f.describe() for f in bad.errors]


COPIED = """# One query's softmax

With $Q = [[1, 0]]$ and $K = [[0.5, 0], [-0.2, 1], [0.3, 1]]$, unscaled, the scores are $QK^T = [0.5, -0.2, 0.3]$.

$$e^{0.5} \\approx 1.649, \\quad e^{-0.3} \\approx 0.741, \\quad e^{0.3} \\approx 1.350, \\quad \\text{sum} = 3.740$$
"""


def test_a_sum_beside_one_wrong_exponential_is_judged_by_what_their_arguments_give():
    """The line copies -0.3 for -0.2 (its own arguments give its sum, 3.740); with one exponential then printed
    wrong too (0.747), that exponential is the finding, and the sum still follows from the arguments written
    beside it: it is not judged against the configuration's row sum (3.818)."""
    r = check_document(COPIED.replace("0.741", "0.747"), fmt="md")
    assert [f.printed for f in r.errors if f.line == 5] == ["0.747"], [f.describe() for f in r.errors]


BY_ROWS = """# Three rows of weights, by hand

```
Scores:
[[0.61, 1.23, 0.35],
 [0.20, 0.90, 1.10],
 [1.30, 0.40, 0.75]]

Row 1:
  exp(0.61) = 1.84, exp(1.23) = 3.42, exp(0.35) = 1.42
  sum = 6.68
  α₁ = [0.275, 0.512, 0.213]

Row 2:
  exp(0.20) = 1.22, exp(0.90) = 2.46, exp(1.10) = 3.00
  sum = 6.68
  α₂ = [0.183, 0.368, 0.449]

Row 3:
  exp(1.30) = 3.67, exp(0.40) = 1.49, exp(0.75) = 2.12
  sum = 7.28
  α₃ = [0.504, 0.205, 0.291]
```
"""


def test_weights_worked_from_the_rounded_exponentials_above_them_are_notes():
    """1.42 / 6.68 = 0.2126 prints 0.213, while the exact share is 0.2124 (and 0.2909 is printed 0.291 from
    2.12 / 7.28 = 0.2912): a value that follows from the rounded
    numbers printed before it is a note; a weight that follows from nothing printed is still a finding."""
    r = check_document(BY_ROWS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(BY_ROWS.replace("0.368, 0.449", "0.386, 0.449"), fmt="md")
    assert [f.line for f in bad.errors] == [17], [f.describe() for f in bad.errors]
