"""A score matrix printed with its rows and columns named, in a code block:

         k1    k2    k3
    q1 [[...],
    q2  [...],
    q3  [...]]

Outside trial t139c: the first row's name became the matrix's label (`q1`, a query), so the scores were never
judged, and three wrong scores of the page went unreported.  Rows named by one letter numbered 1, 2, ... in order,
the first opening `[[`, have their names (and the column names above them) blanked before reading
(readers/__init__._row_labels).
"""

import pytest

from mha.check import check_document

PAGE = """# Scores with named rows

```python
q = [[1.0, 0.5],
     [0.0, 1.0],
     [2.0, 1.0]]

k = [[1.0, 2.0],
     [3.0, 0.0],
     [0.5, 0.5]]

scores = q @ k^T:
         k1    k2    k3
    q1 [[2.0,  3.0,  0.75],
    q2  [2.0,  0.0,  0.5],
    q3  [4.0,  6.0,  1.5]]
```
"""


def test_the_named_rows_are_the_scores():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 9, r.n_numbers


@pytest.mark.parametrize("good, bad, line", [("[2.0,  0.0,  0.5]", "[2.0,  0.0,  0.6]", 15),
                                             ("[4.0,  6.0,  1.5]", "[4.0,  6.5,  1.5]", 16)])
def test_a_slipped_score_is_found(good, bad, line):
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def test_rows_named_out_of_order_are_left_alone():
    from mha.check.readers import _row_labels
    text = "  a1 [[1, 2],\\n  b2  [3, 4]]\\n"
    assert _row_labels(text) == text
