"""A bare vector in display math under a sentence that names it: "So the attention weights are approximately:" and
then `$$ [0.665,\\ 0.245,\\ 0.090] $$`.

Outside trial t142a: right, the vector counted as a claim; with one entry slipped it became "unlabelled, matches
no intermediate" and the page was not even inferred, so a bare vector could only pass or vanish.  The sentence
just before the display names it (readers/markdown.py, listed.caption_quantity), as it does a list under it.
"""

from mha.check import check_document

PAGE = """# Softmax by hand

The raw scores are $[2, 1, 0]$. Exponentiate each: $e^2 \\approx 7.389$, $e^1 \\approx 2.718$, $e^0 = 1$, which add up to $11.107$.

So the attention weights are approximately:

$$
[0.665,\\ 0.245,\\ 0.090]
$$

and they sum to one.
"""


def test_the_captioned_vector_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 8, ([f.describe() for f in r.findings], r.n_numbers)


def test_a_slip_in_the_captioned_vector_is_found_on_its_line():
    r = check_document(PAGE.replace("0.245,", "0.255,"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(8, "0.255")], [f.describe() for f in r.findings]


def test_a_caption_that_names_no_quantity_labels_nothing():
    page = PAGE.replace("So the attention weights are approximately:", "Here is a vector:")
    r = check_document(page.replace("0.245,", "0.255,"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
