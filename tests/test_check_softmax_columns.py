"""A table with a column of scores and a column of their softmax weights, one row per key (t216a, a walkthrough's
pooling table, where two weights were off by one in the last place and passed): the weights column is the softmax
of the scores column, as the header says.  Not tied: a column that the softmax of the scores divided by √d gives
exactly (raw scores beside the weights of the scaled ones), or weights far from the plain softmax."""

from check_helpers import error_places, line_of

TABLE = """# Pooling over three steps

| Step | Attention score | Softmax weight |
|---|---|---|
| 1 | 1.2 | {w1} |
| 2 | -0.4 | 0.059 |
| 3 | 2.0 | **0.649** ← the step that counts |
"""


def test_a_right_column_of_weights_holds():
    assert error_places(TABLE.format(w1="0.292")) == []


def test_a_weight_off_its_score_is_found_on_its_row():
    text = TABLE.format(w1="0.295")
    assert error_places(text) == [(line_of(text, "0.295"), "0.295")]


def test_weights_of_the_scaled_scores_beside_the_raw_ones_are_no_slip():
    scaled = TABLE.format(w1="0.324").replace("0.059", "0.105").replace("0.649", "0.571")
    assert error_places(scaled) == []


def test_a_column_far_from_the_softmax_is_not_tied():
    assert error_places(TABLE.format(w1="0.430").replace("0.059", "0.000").replace("0.649", "0.570")) == []
