r"""A row of weights printed wrong (the softmax of the scores beside it gives other values), then written again as
the coefficients of `output_1 = c1 * v1 + ... + c5 * v5` with one coefficient changed again (an outside trial's
translated lessons, t245c).  The unchanged coefficients got their notes ("quoted again"), and the changed one
nothing: the row did not sum to 1, so no row was taken for the sum to quote.  A row judged as weights is the row
the sum quotes; a coefficient that is neither its printed weight nor the right one is a slip of the sum.
My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

SCORES = [1.8, 0.4, 0.2, 1.1, 0.3]


def _page(quoted):
    w = softmax(np.array(SCORES))
    assert [f"{x:.2f}" for x in w] == ["0.46", "0.11", "0.09", "0.23", "0.10"]
    printed = "[0.41, 0.11, 0.07, 0.20, 0.10]"          # made wrong on purpose: 0.41, 0.07 and 0.20
    terms = " + ".join(f"{c} * v{k + 1}" for k, c in enumerate(quoted))
    return "\n".join([
        "Raw scores -> softmax -> weights", "",
        "```",
        "scores for token 1:   [" + ", ".join(str(s) for s in SCORES) + "]",
        "                          |",
        "                       softmax",
        "                          |",
        f"weights:              {printed}",
        "```", "",
        "Each output is the weighted sum of the value vectors:", "",
        "```",
        "out_i = sum over j of w[i][j] * v_j", "",
        "For token 1:",
        f"  output_1 = {terms}",
        "```", ""])


def test_a_quote_of_the_wrong_row_as_printed_gets_notes_only():
    page = _page(["0.41", "0.11", "0.07", "0.20", "0.10"])
    places = error_places(page, fmt="md")
    assert places and {ln for ln, _ in places} == {line_of(page, "weights:")}


def test_a_coefficient_changed_again_in_the_sum_is_found():
    page = _page(["0.41", "0.17", "0.07", "0.20", "0.10"])
    assert (line_of(page, "output_1"), "0.17") in error_places(page, fmt="md")


def test_a_coefficient_set_right_in_the_sum_is_no_slip():
    page = _page(["0.41", "0.11", "0.09", "0.20", "0.10"])     # 0.09 is the right weight
    assert line_of(page, "output_1") not in {ln for ln, _ in error_places(page, fmt="md")}
