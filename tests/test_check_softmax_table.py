"""A Markdown table of softmax examples (field document K-09, a Chinese reading of the paper): a column of inputs,
a column headed "softmax 输出", a vector in each cell.  Each row says its second vector is the softmax of its first,
but table cells were read as one matrix per column, so no row was judged and a slipped weight went unseen.  Rows
of such a table are tied now as a sentence's softmax is (readers/softmaxsaid.tie_table_softmax).
"""

import numpy as np

from mha.check import check_document
from mha.check.readers import read_document

DOC = """# 温度与饱和

| 输入 | softmax 输出 | 说明 |
|------|--------------|------|
| `[2, 1, 0.1]` | `[0.66, 0.24, 0.10]` | 比较平缓 |
| `[0.5, 0.5, 1.0]` | `[0.27, 0.27, 0.45]` | 两个并列 |
| `[20, 10, 1]` | `[~1.0, 4.5e-5, 5.6e-9]` | 几乎独热 |
"""

SCALED = """# A table whose output column is not the softmax alone

| input | softmax(x / 2) |
|-------|----------------|
| [2, 1, 0.1] | [0.50, 0.30, 0.19] |
"""


def _softmax(x):
    e = np.exp(np.asarray(x, float) - max(x))
    return e / e.sum()


def test_the_numbers_are_what_numpy_gives():
    assert np.round(_softmax([2, 1, 0.1]), 2).tolist() == [0.66, 0.24, 0.10]
    assert np.round(_softmax([0.5, 0.5, 1.0]), 2).tolist() == [0.27, 0.27, 0.45]
    assert np.round(_softmax(np.array([2, 1, 0.1]) / 2), 2).tolist() == [0.50, 0.30, 0.19]


def test_the_rows_are_judged_and_hold():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 6, [f.describe() for f in r.findings]


def test_a_slipped_weight_in_a_row_is_found_on_its_line():
    r = check_document(DOC.replace("[0.27, 0.27, 0.45]", "[0.27, 0.37, 0.45]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, "0.37")], [f.describe() for f in r.findings]


def test_a_row_far_from_summing_to_one_is_not_read_as_the_softmax():
    # [0.10, 0.20, 0.30] sums to 0.6: made-up numbers, or another operation; the row is not tied, nothing is judged
    r = check_document(DOC.replace("[0.66, 0.24, 0.10]", "[0.10, 0.20, 0.30]"), fmt="md")
    assert not any(f.line == 5 for f in r.errors), [f.describe() for f in r.findings]


def test_a_column_of_another_operation_is_not_read_as_the_softmax():
    doc = read_document(SCALED, "md")
    assert not any(a.softmax_of is not None for a in doc.arrays)


def test_a_row_with_tiny_weights_in_e_notation_is_judged():
    # `[~1.0, 4.5e-5, 5.6e-9]`: E notation and a tilde were not read as a vector, so the row was never tied
    assert np.allclose(_softmax([20, 10, 1])[1:], [4.54e-5, 5.6e-9], rtol=0.02)
    r = check_document(DOC.replace("4.5e-5", "4.5e-3"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(7, "4.5e-3")], [f.describe() for f in r.findings]
