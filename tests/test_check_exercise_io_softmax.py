"""An exercise page's example for a softmax function, `input: scores = [...]` over `output: [...]` (trial t171d, a
problem-set solution).  With every weight right the scores were read as the raw scores given; with one weight
wrong, two of three still right, the reading moved to "X with identity weights" and the wrong weight was "not
checked".  On a page that names the softmax above them, the two lines say the output is the input's softmax, and
the pair is judged whatever the configuration.  My own scores; the weights are NumPy's, at four decimals."""

import numpy as np

from mha.check import check_document

SCORES = [0.5, 2.0, -1.0, 1.0]


def _page(slip=None):
    e = np.exp(np.array(SCORES) - max(SCORES))
    w = ", ".join(f"{x:.4f}" for x in e / e.sum())
    text = "\n".join(["# Softmax, an exercise", "", "Write `softmax(scores)` returning a list rounded to four decimals.",
                      "", "## Example", "", "```text", f"input: scores = {SCORES}", f"output: [{w}]",
                      "reasoning: each exponential over the sum of all of them", "```", ""])
    return text.replace(*slip) if slip else text, e / e.sum()


def test_the_example_holds_and_a_slipped_weight_is_found():
    text, w = _page()
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 4, ([f.describe() for f in r.findings], r.n_numbers)
    right = f"{w[2]:.4f}"
    wrong = f"{w[2] + 0.01:.4f}"
    r = check_document(text.replace(right, wrong), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(9, wrong)], [f.describe() for f in r.findings]


def test_without_the_softmax_named_the_lines_are_no_pair():
    text, w = _page()
    plain = text.replace("# Softmax, an exercise", "# An exercise").replace("`softmax(scores)`", "`f(scores)`")
    right = f"{w[2]:.4f}"
    r = check_document(plain.replace(right, f"{w[2] + 0.01:.4f}"), fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
