"""Weights printed under a call of `masked_softmax(...)` in a Markdown page (t158b, Chinese course notes after d2l):
the call line is the caption of the printout below it, and the caption filter for unnormalised values ("mask",
"before softmax") read "masked_softmax(" as words about a mask, so a row summing to 1.01 went unseen.  The call
is the softmax after the mask; its rows sum to 1 (claims/rowsum._NOT_NORMALIZED)."""

from mha.check import check_document

DOC = """# 掩蔽 softmax

```python
attention_weights = masked_softmax(scores, valid_lens)
attention_weights
```

    tensor([[[0.5318, 0.4682, 0.0000, 0.0000],
             [0.4377, 0.5623, 0.0000, 0.0000]],

            [[0.2936, 0.3561, 0.3503, 0.0000],
             [0.3845, 0.2547, 0.3608, 0.0000]]])

每一行的有效部分之和为 1，被掩蔽的位置权重为 0。
"""


def test_the_rows_sum_to_one():
    rows = [[0.5318, 0.4682], [0.4377, 0.5623], [0.2936, 0.3561, 0.3503], [0.3845, 0.2547, 0.3608]]
    assert all(abs(sum(r) - 1) < 1e-9 for r in rows)


def test_a_row_that_does_not_sum_to_one_is_found():
    r = check_document(DOC.replace("[0.4377, 0.5623", "[0.4377, 0.5723"), fmt="md")
    assert [f.line for f in r.errors] == [9], [f.describe() for f in r.findings]


def test_the_right_printout_gives_no_finding():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_claims >= 1, [f.describe() for f in r.findings]
