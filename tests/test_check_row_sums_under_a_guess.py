"""Weights printed from projections the page never shows (outside trial t162d, notes on a video course): an input
printout, then causal attention weights after a softmax of learned, unprinted scores.  The configuration is a
guess (X with weights assumed I) that the weights do not match, so they stayed "not checked", and with nothing
else checked the page was refused as "inputs only"; yet the same page with one slipped weight was checked, by its
row's sum.  The rows' sums are now the claim made of such weights under a configuration too, as they were with
no configuration and in notebooks (verdict._count_alone).  Behind it was a naming slip: an output block after words
of its own took the name `print(x)` gave the block before (readers/python.read_output).  My own page."""

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError

PAGE = """# A causal head with learned projections

The projections are learned, so only the input and the result are shown.

```python
x = torch.randn(3, 4)
print(x)
```

```
tensor([[ 0.3120, -1.0450,  0.7730,  0.0410],
        [-0.5520,  0.2390,  1.1030, -0.8760],
        [ 1.4420,  0.6610, -0.2050,  0.5180]])
```

Attention weights after the softmax:

```
tensor([[1.0000, 0.0000, 0.0000],
        [0.3775, 0.6225, 0.0000],
        [0.2104, 0.4811, 0.3085]])
```
"""


def test_the_rows_sum_to_one():
    assert round(0.3775 + 0.6225, 4) == 1.0 and round(0.2104 + 0.4811 + 0.3085, 4) == 1.0


def test_the_page_is_checked_by_its_row_sums_not_refused():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_claims >= 1 and r.n_numbers >= 9, [f.describe() for f in r.findings]
    # that the guessed configuration explains nothing of them is still said
    assert any(n.line == 19 and "matches no" in n.reason for n in r.not_checked), \
        [(n.line, n.reason) for n in r.not_checked]


def test_a_slipped_weight_is_found_by_its_row():
    r = check_document(PAGE.replace("0.6225", "0.6325"), fmt="md")
    assert [f.line for f in r.errors] == [20], [f.describe() for f in r.findings]


def test_a_page_of_inputs_alone_is_still_refused():
    with pytest.raises(MHAInputError):
        check_document(PAGE.split("Attention weights")[0], fmt="md")


def test_a_second_printout_after_words_does_not_take_the_first_ones_name():
    # `print(x)` named the first output block; the block under "Attention weights after the softmax:" was read as x
    # too, so its own caption never named it
    from mha.check.readers import read_document
    labels = [a.label for a in read_document(PAGE, "md").arrays]
    assert labels[0] == "x" and labels[1] != "x", labels
