"""One query's scores and weights listed a token a line inside code blocks, with a paragraph between them.

A public walk-through (field set G, fieldG-09) printed, in one code block, `word -> "token" (pos 1): score = 0.78
(the subject)` for each token, then a paragraph ("these are divided by the square root of 4 ... then softmax turns
them into shares"), then a second block headed "After softmax:" with `word -> "token": 0.18  (18 percent)` lines and
a total.  Neither list was read (no bullets, remarks after the values), and the two blocks were too far apart to be
a pair, so its made-up weights went unseen.  Now:

* a line that names its token and says which quantity its value is (`...: score = 0.78`) is one entry of that
  quantity's row, with or without a caption (readers/listed.py);
* under a caption that names the quantity, unindented `name: value (remark)` lines in a code block are its entries;
  a "Total:" line is not one;
* a named row of raw scores and a named row of weights with only a paragraph between them, which says the softmax
  and no number but the scale, are a softmax pair (claims/softmax_more.py), judged under the stated scale or none.
"""

import pytest

from mha.check import check_document

PAGE = """# Where "barked" looks

The query is the word *barked*. Its raw scores against each token:

```
barked -> "the" (pos 0): score = 0.9   (the article)
barked -> "dog" (pos 1): score = 0.2   (who barked)
barked -> "at" (pos 2): score = 0.55
barked -> "a" (pos 3): score = -0.3
barked -> "cat" (pos 4): score = 1.4   (at whom)
```

The scores are divided by the square root of 4, which is 2, so that they
stay moderate. The softmax then turns them into shares that add to one.

```
After softmax:
barked -> "the": 0.23  (23 percent)
barked -> "dog": 0.16  (16 percent)
barked -> "at": 0.19
barked -> "a": 0.13
barked -> "cat": 0.29  (29 percent)
Total: 1.00
```
"""


def test_the_lists_are_read_and_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 5, r.n_numbers


@pytest.mark.parametrize("old, new, line", [
    ('"dog": 0.16', '"dog": 0.18', 19),                  # a slip in one weight
    ('"cat": 0.29  (29', '"cat": 0.27  (29', 22),
])
def test_a_slipped_weight_is_found(old, new, line):
    assert old in PAGE
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_made_up_weights_are_wrong_under_every_reading():
    """Weights that are neither the softmax of the scores nor of the scores over 2: each one is said wrong."""
    made_up = PAGE
    for old, new in [("0.23  (23", "0.30  (30"), ("0.16  (16", "0.35  (35"), ('"at": 0.19', '"at": 0.10'),
                     ('"a": 0.13', '"a": 0.05'), ("0.29  (29", "0.20  (20")]:
        made_up = made_up.replace(old, new)
    r = check_document(made_up, fmt="md")
    assert sorted(f.line for f in r.errors) == [18, 19, 20, 21, 22], [f.describe() for f in r.findings]


def test_a_temperature_between_them_unties_the_pair():
    """A number between the two blocks that is no scale (a temperature) makes the weights another softmax: the
    pair is not read, and the made-up weights are not judged against these scores."""
    text = PAGE.replace("The softmax then turns", "With a temperature T = 0.7 the softmax then turns")
    text = text.replace('"dog": 0.16', '"dog": 0.18')
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_total_is_no_entry():
    from mha.check.readers import read_document
    doc = read_document(PAGE, fmt="md")
    rows = [[n.value for n in a.numbers] for a in doc.arrays]
    assert [0.9, 0.2, 0.55, -0.3, 1.4] in rows, rows
    assert [0.23, 0.16, 0.19, 0.13, 0.29] in rows, rows
