"""An equation carried over two displays (t219f, a study note on additive attention): `$$ α = softmax([..]) $$`
and then `$$ ≈ [0.18, 0.73, ...] $$`.  Each display was read alone, so the weights had no softmax beside them, the
scores matched no configuration, and nothing was checked (a page whose weights do not sum to 1 exited 0).  A
display that starts with its relation (=, ≈, \\approx) goes on from the display right before it
(readers/markdown.py `_GOES_ON`).  My own scores: softmax([1.2, 0.3, -0.4]) = [0.622, 0.253, 0.126]."""

from check_helpers import error_places, line_of

PAGE = """# One decoder step

The alignment scores of the three source words are given:

$$
e_1 = 1.2,\\quad e_2 = 0.3,\\quad e_3 = -0.4
$$

The weights are their softmax:

$$
\\alpha = \\text{{softmax}}([1.2,\\ 0.3,\\ -0.4])
$$

$$
\\approx [{w}]
$$

The context vector is $c = \\sum_j \\alpha_j h_j$.
"""


def test_the_weights_check_clean():
    from mha.check import check_document
    r = check_document(PAGE.format(w="0.622,\\ 0.253,\\ 0.126"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 3


def test_a_wrong_weight_in_the_second_display_is_found():
    text = PAGE.format(w="0.622,\\ 0.235,\\ 0.126")
    assert error_places(text) == [(line_of(text, "0.235"), "0.235")]



def test_weights_mostly_wrong_are_judged_against_their_own_softmax():
    """Three of four weights off (the note's own case): no configuration explains them, but the softmax written
    beside them does, so each wrong one is a finding."""
    text = PAGE.format(w="0.66,\\ 0.24,\\ 0.10")
    line = line_of(text, "0.66")
    assert error_places(text) == [(line, "0.66"), (line, "0.24"), (line, "0.10")]
