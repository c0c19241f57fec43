"""A softmax said in a sentence with its numbers listed in the words, not bracketed: "softmax of 3 and 1 gives
0.88 and 0.12", "3 和 1 经 Softmax 后得到 0.88 和 0.12" (t206a, Chinese notes on the scaled scores).  The sentence
ties the weights to the scores as `softmax([3, 1]) = [0.88, 0.12]` does; a slipped weight is found on its line,
and a list that is not the scores (a word between it and the verb) ties nothing."""

import numpy as np

from check_helpers import error_places, line_of, softmax


def weights(scores) -> list[str]:
    return [f"{w:.2f}" for w in softmax(np.array(scores, dtype=float))]


def page(en: list[str], zh: list[str]) -> str:
    return f"""# Two scores

The dot products are 24 and 8; divided by √64 = 8 they are 3 and 1.

Applying softmax to 3 and 1 gives {en[0]} and {en[1]}.

两个分数 3 和 1 经 Softmax 后得到 {zh[0]} 和 {zh[1]}。

With three keys, applying softmax to 2, 1 and 0 gives {', '.join(weights([2, 1, 0])[:2])} and {weights([2, 1, 0])[2]}.
"""


def test_weights_listed_in_words_that_hold_give_no_finding():
    w = weights([3, 1])
    assert error_places(page(w, w)) == []


def test_a_slipped_weight_listed_in_words_is_found_in_either_language():
    w = weights([3, 1])
    slipped = ["0.86", w[1]]
    text = page(slipped, w)
    assert error_places(text) == [(line_of(text, "Applying softmax to 3"), "0.86")]
    text = page(w, slipped)
    assert error_places(text) == [(line_of(text, "经 Softmax"), "0.86")]


def test_a_list_that_is_not_the_scores_ties_nothing():
    text = "# Heads\n\nThe softmax over 3 and 4 tokens gives 0.50 and 0.50 in this toy case.\n"
    assert error_places(text) == []
