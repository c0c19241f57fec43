"""Two caption lines over printed weights (outside trial t163c, a README of sample output): "Example with causal
masking:" and, right above the matrix, "Causal attention weights (first batch):".  The word "masking" anywhere in
the caption made the matrix read as masked scores before the softmax, so a row summing to 1.001 went unseen.  The
nearest line that names the matrix now decides (claims/rowsum._caption); masked scores captioned as such are still
left alone.  My own block; its rows sum to 1 at eight decimals."""

from decimal import Decimal

from mha.check import check_document
from mha.inputs import MHAInputError

BLOCK = """# Sample output

```
Example with causal masking:
Causal attention weights (first batch):
[[1.         0.         0.        ]
 [0.31214965 0.68785035 0.        ]
 [0.10661424 0.57928703 0.31409873]]
```
"""


def test_the_rows_sum_to_one():
    assert Decimal("0.31214965") + Decimal("0.68785035") == 1
    assert Decimal("0.10661424") + Decimal("0.57928703") + Decimal("0.31409873") == 1


def test_a_row_off_by_a_digit_is_found_under_two_captions():
    r = check_document(BLOCK.replace("0.57928703", "0.57938703"), fmt="md")
    assert [f.line for f in r.errors] == [8], [f.describe() for f in r.findings]


def test_rows_of_masked_scores_are_not_summed():
    block = BLOCK.replace("Causal attention weights (first batch):", "Masked scores (first batch):")
    try:
        r = check_document(block.replace("0.57928703", "0.57938703"), fmt="md")
    except MHAInputError:            # nothing else to check on the block: refused, so no finding either
        return
    assert not r.errors, [f.describe() for f in r.findings]
