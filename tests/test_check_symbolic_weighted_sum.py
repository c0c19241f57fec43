"""A row of weights written again as the coefficients of a weighted sum over value vectors that are only named
(t150b, a translated lesson: `output_1 = 0.58 * v1 + ... + 0.09 * v5` under the printed weights).  The sum
cannot be evaluated, so a slip in one coefficient went unseen.  Each coefficient claims to be its key's weight:
with all the others the row's entries digit for digit, the one that is not is a slip on the sum's line
(claims/quotedsum.py).  A row that does not sum to 1 (itself slipped), or a coefficient printed to another
precision, says nothing.
"""

import re

from mha.check import check_document

DOC = """# One query, four keys

Scores of the first query: [1.2, 0.4, -0.3, 0.9]

After the softmax, its weights: {row}

```
For the first token:
  output_1 = {sum}
```

The same in symbols: $o_1 = {tex}$.
"""
ROW = "[0.41, 0.19, 0.09, 0.31]"
SUM = "0.41 * v1 + 0.19 * v2 + 0.09 * v3 + 0.31 * v4"


def _errors(row: str, total: str) -> list:
    tex = re.sub(r" \* v(\d)", r" v_\1", total)
    return check_document(DOC.format(row=row, sum=total, tex=tex), fmt="md").errors


def test_the_sum_that_quotes_its_row_holds():
    assert not _errors(ROW, SUM)
    assert not _errors(ROW, SUM.replace("0.19", "0.190"))     # another precision of the same weight


def test_a_misquoted_coefficient_is_found_on_the_sum():
    errors = _errors(ROW, SUM.replace("0.19", "0.29"))
    assert [(f.line, f.printed, f.rounded) for f in errors] == [(9, "0.29", "0.19"), (12, "0.29", "0.19")], \
        [f.describe() for f in errors]


def test_a_slipped_row_leaves_the_sum_alone():
    # the row's own slip (0.31 for 0.41) is its softmax's finding; the sum that has the right 0.41 is not wrong
    errors = _errors(ROW.replace("0.41", "0.31", 1), SUM)
    assert [f.line for f in errors] == [5], [f.describe() for f in errors]
