"""A table with one row per key and its scores and softmax weights in two columns, beside other columns.

A public page's ALiBi table (outside trial t131e: key, distance, bias, biased score, softmax weight) crashed the
checker on the snapshot it ran: the helper that turns a table's column into a row had been lost in an edit earlier
the same stop.  The page now reads, and a slipped weight in such a table is found.
"""

from mha.check import check_document

PAGE = """
# A linear bias by hand

One query at position 3 looks at keys 0 to 3; every raw score is 1.0, and the head's slope is 0.5:

| key | distance | bias | biased score | softmax weight |
|---|---|---|---|---|
| 3 | 0 | 0.0 | 1.0 | 0.455 |
| 2 | 1 | -0.5 | 0.5 | 0.276 |
| 1 | 2 | -1.0 | 0.0 | 0.167 |
| 0 | 3 | -1.5 | -0.5 | 0.102 |
"""


def test_a_table_of_biased_scores_and_weights_reads():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 4, r.n_numbers


def test_a_slipped_weight_in_the_column_is_found():
    r = check_document(PAGE.replace("| 0.276 |", "| 0.286 |"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(9, "0.286")], [f.describe() for f in r.findings]
