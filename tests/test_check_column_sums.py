"""Vectors added down a column, the way a hand-drawn walk-through sums the weighted values of one query:

      [0.0, 0.0, 0.0]
    + [1.5, 0.5, 2.0]
    + ...
    -----------------
    = [..]

The drawing states its own arithmetic; a slip in the total was missed (a public translation of a well-known
illustrated example), since nothing else reads such a block.  Terms worked out exactly just above
(`0.5 * [3, 1, 4] = [1.5, 0.5, 2.0]`) carry no rounding, so a total off by one unit of its last digit is found."""

import pytest

from mha.check import check_document

PAGE = """# Weighting the values

Each value is multiplied by its softmax weight:

```
1: 0.0 * [2, 2, 1] = [0.0, 0.0, 0.0]
2: 0.5 * [3, 1, 4] = [1.5, 0.5, 2.0]
3: 0.5 * [1, 3, 2] = [0.5, 1.5, 1.0]
```

Adding the weighted values gives the output of the first input:

```
  [0.0, 0.0, 0.0]
+ [1.5, 0.5, 2.0]
+ [0.5, 1.5, 1.0]
-----------------
= [2.0, 2.0, 3.0]
```
"""


def test_the_column_sum_checks_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("old, new", [("= [2.0, 2.0, 3.0]", "= [2.0, 2.1, 3.0]"), ("= [2.0, 2.0, 3.0]", "= [2.0, 2.0, 3.5]")])
def test_a_slip_in_the_total_is_found_on_its_line(old, new):
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert [f.line for f in r.errors] == [18], [f.describe() for f in r.findings]


def test_terms_not_worked_exactly_keep_their_rounding():
    """Printed to one decimal with no exact working above, the terms may be roundings: 0.35 + 0.35 printed as
    0.4 + 0.4 = 0.7 is no slip."""
    page = "```\n  [0.4, 1.0]\n+ [0.4, 2.0]\n----------\n= [0.7, 3.0]\n```\n"
    r = check_document(page, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
