"""A total under values listed one a line (field document G-09, a walk through one query's scores): a printout of
`sat attending to "cat": 0.35` lines, then `Total: 1.00 (100 percent)`.  The total was read as nothing; a slipped
total passed.  It is the author's claim about the values above it, judged by adding them up, their rounding and its
own allowed (claims/rowsum._listed_total).  My own printouts."""

import pytest

from mha.check import check_document

BLOCK = """# Where one word looks

```
After softmax:
"bird" attending to "the":  0.21
"bird" attending to "bird": 0.46
"bird" attending to "flew": 0.33
Total: 1.00 (100 percent)
```

```
Thirds:
"a": 0.33
"b": 0.33
"c": 0.33
Total: 1.00
```
"""


def test_the_values_add_up():
    assert round(0.21 + 0.46 + 0.33, 2) == 1.0
    assert abs(3 * 0.33 - 1.0) <= 3 * 0.005 + 0.005       # thirds rounded: within the rounding of the four


def test_the_totals_hold():
    r = check_document(BLOCK, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


@pytest.mark.parametrize("right, wrong, line", [("Total: 1.00 (100", "Total: 1.10 (100", 8),
                                                ("Total: 1.00\n```\n", "Total: 0.90\n```\n", 16)])
def test_a_slipped_total_is_found_on_its_line(right, wrong, line):
    r = check_document(BLOCK.replace(right, wrong), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
