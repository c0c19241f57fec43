"""Scores and weights written one token a line as the quantity called on the token: `score(chat) = 0.90  — the
noun`, then, under "After softmax (weights that sum to 1):", `weight(chat) = 0.44`.

A public page (outside trial t132f) worked four cross-attention steps this way with weights made up for the
story (0.08, 0.10, 0.82 for scores 0.15, 0.20, 0.85); none was read, and "sum to 1" in the caption between the two
blocks counted as a number of the example, so the pair could not be told either.  Lines of this form are one row
of their quantity (readers/listed.py), and "sum to 1" is the softmax's property in words (readers/__init__).
"""

import pytest

from mha.check import check_document

PAGE = """# The decoder asks about "dort"

    Scores of the query against each encoder token:
        score(le) = 0.30     — the article, little use
        score(chat) = 0.90   — the subject
        score(dort) = 0.45

    After softmax (scores become weights that sum to 1):
        weight(le) = 0.25
        weight(chat) = 0.46
        weight(dort) = 0.29
"""


def test_the_called_items_pair_and_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 3, r.n_numbers


def test_made_up_weights_are_each_found():
    text = PAGE.replace("weight(le) = 0.25", "weight(le) = 0.08").replace("weight(chat) = 0.46", "weight(chat) = 0.62")
    r = check_document(text, fmt="md")
    assert sorted(f.line for f in r.errors) == [9, 10], [f.describe() for f in r.findings]


@pytest.mark.parametrize("line, said", [("weights that sum to 1", "softmax"), ("all three add up to 1", "softmax"),
                                        ("divide by 2", "number")])
def test_sum_to_one_is_no_number(line, said):
    from mha.check.readers import read_document
    doc = read_document(f"scores = [1, 2]\n\nThe softmax, {line}:\n\nweights = [0.27, 0.73]\n", "md")
    assert doc.softmax_said.get(3) == said
