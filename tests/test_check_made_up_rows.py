"""A Q, K, V table whose later rows were made up rather than computed (a lesson that works one token's query by
hand and fills in the others), with X and the three weights printed above it.

Half of Q's cells agree with X·W_Q and the others do not: by the usual rule (two thirds of an object's other
cells must agree before one of its cells is called wrong) the table was "not established" and none of its wrong
cells was reported.  Named Q, and fed by printed X and W_Q, half its cells agreeing (three informative ones at
least) identify it.  On a public HTML page of this kind 22 made-up entries went unreported; the table headers
there were "Q Vector (4D)", which named nothing either."""

import pytest

from mha.check import check_document
from mha.check import labels as lb

PAGE = """\
# Queries, keys and values from four tokens

The inputs, one token per row:

| token | x |
|---|---|
| red | [1, 0, 2] |
| fox | [0, 1, 1] |
| ran | [2, 1, 0] |
| far | [1, 1, 1] |

The weights:

```
W_Q = [[0.5, 0.1],
       [0.2, 0.7],
       [0.3, 0.4]]
W_K = [[0.4, 0.2],
       [0.1, 0.6],
       [0.3, 0.1]]
W_V = [[0.2, 0.3],
       [0.5, 0.1],
       [0.1, 0.4]]
```

Each row of Q, K and V is its token's row times the weight.

| token | Q Vector | K Vector | V Vector |
|---|---|---|---|
| red | [1.1, 0.9] | [1.0, 0.4] | [0.4, 1.1] |
| fox | [0.5, 0.8] | [0.4, 0.7] | [0.6, 0.5] |
| ran | [1.2, 1.3] | [0.9, 1.0] | [0.9, 0.7] |
| far | [1.4, 1.6] | [0.8, 0.9] | [0.8, 0.8] |
"""

CLEAN = PAGE.replace("| fox | [0.5, 0.8] |", "| fox | [0.5, 1.1] |").replace(
    "| ran | [1.2, 1.3] |", "| ran | [1.2, 0.9] |").replace("| far | [1.4, 1.6] |", "| far | [1.0, 1.2] |")


def test_the_computed_table_checks_clean():
    r = check_document(CLEAN, fmt="md")
    assert not r.errors and r.n_numbers >= 24, ([f.describe() for f in r.errors], r.n_numbers)


def test_each_made_up_entry_is_reported():
    r = check_document(PAGE, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(31, "0.8"), (32, "1.3"), (33, "1.4"), (33, "1.6")], \
        [f.describe() for f in r.findings]


def test_fewer_than_half_agreeing_identify_nothing():
    """With the first row made up too, two cells of eight agree: the table may be another example's."""
    r = check_document(PAGE.replace("| red | [1.1, 0.9] |", "| red | [1.3, 0.6] |"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.line == 30 for n in r.not_checked), r.not_checked


def test_a_word_for_a_name_is_not_enough():
    """"Query vector" names the quantity loosely (a word and its noun): a half-agreeing table under it is not
    identified."""
    r = check_document(PAGE.replace("| Q Vector |", "| Query vector |"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("text, nodes", [("V Vector (4D)", ("V",)), ("Q matrix", ("Q",)), ("the K vectors", ("K",)),
                                         ("Q Matrix (3x4)", ("Q",)), ("A matrix", None), ("V vector of token 2", None)])
def test_a_letter_and_its_noun_name_the_letter(text, nodes):
    r = lb.parse_label(text)
    assert (r.nodes if r is not None else None) == nodes
