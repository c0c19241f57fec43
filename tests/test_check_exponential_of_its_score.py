r"""Scores, their exponentials and the weights printed one under the other, with one exponential slipped
(`exp(): [1.65, 2.23, 3.23, 1.35]` for e^1.2 = 3.32) while the weight under it is right (an outside trial's slipped
copy, t244b).  The weights were judged as shares of the printed exponentials, so the right weight was blamed for
the wrong exponential.  When every exponential but one is e to the score printed above it, the row is known to be
those exponentials and the odd one is the slip.  My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

S = np.array([0.5, 0.8, 1.2, 0.3])


def _page(exps=None):
    exps = exps or "[" + ", ".join(f"{x:.2f}" for x in np.exp(S)) + "]"
    w = softmax(S)
    return "\n".join([
        "## Scores to weights", "", "```", "scores:   [0.5, 0.8, 1.2, 0.3]", "           | exponentiate",
        f"exp():    {exps}", "           | divide by their sum",
        "softmax:  [" + ", ".join(f"{x:.2f}" for x in w) + "]", "```", ""])


def test_the_chain_holds():
    assert [f for f in check_document(_page(), fmt="md").findings if f.severity == "error"] == []


def test_a_slipped_exponential_is_found_and_its_weight_not_blamed():
    page = _page("[1.65, 2.23, 3.23, 1.35]")
    assert error_places(page) == [(line_of(page, "3.23"), "3.23")]
