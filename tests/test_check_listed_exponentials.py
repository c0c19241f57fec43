"""Exponentials listed in words after a row of scores, then their sum named as such (t213e, an HTML practice box):
"Exponentials: [2.23, 6.69, 3.00, 1.82]" over "Sum = 13.74".  The list's first and last numbers sit against its
brackets, and the run of listed numbers went on into the sum, judged as the exponential of the last score.  A
number named as the total (sum, total, Σ, 总和, suma ...) ends the run, as a written-out sum already did."""

from check_helpers import error_places, line_of

PAGE = """<html><body>
<h3>Practice: the softmax of one row</h3>
<p>Scaled scores for "cat": [0.8, 1.9, 1.1, 0.6]</p>
<p>Exponentials: [2.23, {e2}, 3.00, 1.82]</p>
<p>{word} = 13.74. What is the weight of the second word?</p>
</body></html>
"""


def test_the_named_sum_is_no_exponential():
    for word in ("Sum", "Total", "Suma", "Σ"):
        assert error_places(PAGE.format(e2="6.69", word=word), fmt="html") == [], word


def test_a_slipped_exponential_is_still_found():
    text = PAGE.format(e2="6.96", word="Sum")
    assert (line_of(text, "6.96"), "6.96") in error_places(text, fmt="html")
