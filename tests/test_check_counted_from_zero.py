"""A page that counts its rows from 0 ("Row 0 (the)", "Row 1 (dog)", "Row 2 (ran)") and sums each one's exponentials.

On a public walk-through (outside trial t129d) "Row 2 (on): e^0 = 1 (three of them), sum = 3" was judged against
the second row's sum (2.521), because a prose "row 2" is read as the second row unless its own line says "row 0".
Once the page has said "row 0" anywhere, its rows are counted from 0 (claims/target._row_base).
"""

import pytest

from mha.check import check_document

PAGE = """# Causal softmax, row by row

The masked scores, already divided by the square root of d_k:

```
S = [[ 0.6, -inf, -inf],
     [-0.4,  0.9, -inf],
     [ 0.0,  0.0,  0.0]]
```

**Row 0 (the):** only the first key is visible, so the weights are `[1, 0, 0]`.

**Row 1 (dog):**
```
e^(-0.4) = 0.670
e^(0.9)  = 2.460
sum = 3.130
weights = [0.214, 0.786, 0]
```

**Row 2 (ran):**
```
e^0 = 1 (three of them), sum = 3
weights = [0.333, 0.333, 0.333]
```
"""


def test_sums_of_rows_counted_from_zero_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("old, new, line", [("sum = 3.130", "sum = 3.150", 17), ("sum = 3\n", "sum = 4\n", 23)])
def test_a_wrong_sum_is_held_to_its_own_row(old, new, line):
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def test_without_a_row_0_a_row_2_is_the_second():
    from mha.check.claims.target import _ROW_ZERO
    assert _ROW_ZERO.search("**Row 0 (the):**")
    assert _ROW_ZERO.search("第0行")
    assert not _ROW_ZERO.search("row 0.5 of the grid")
    assert not _ROW_ZERO.search("Row 10")
