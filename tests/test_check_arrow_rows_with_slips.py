"""Rows written `[scores] → [weights]`: when most rows are softmax rows the arrow means the softmax, and a row that
does not fit is a slip.  A row with one wrong entry of three is still a softmax row (it fits on the others): two
rows with slips out of three no longer turn the arrow into "another step" and hide both."""

from mha.check import check_document

DOC = """# Three rows by hand

Three tokens with two-number embeddings; here W_Q = W_K = W_V = I and the scores are not scaled:

X = [[1, 0], [0, 1], [1, 1]]

## Softmax

Each row of scores becomes a row of weights:

```
  row "red"    [1, 0, 1]  →  [0.42, 0.16, 0.42]
  row "green"  [0, 1, 1]  →  [0.16, 0.42, 0.42]
  row "blue"   [1, 1, 2]  →  [0.21, 0.21, 0.58]
```
"""


def _errors(doc):
    r = check_document(doc, fmt="md")
    return sorted({(f.line, f.printed) for f in r.findings if f.severity == "error"}), r


def test_clean_rows_hold():
    errors, r = _errors(DOC)
    assert errors == [] and r.n_claims >= 3, [f.describe() for f in r.findings]


def test_one_slipped_entry_and_one_wrong_row_are_both_found():
    doc = DOC.replace("[0.42, 0.16, 0.42]", "[0.42, 0.18, 0.42]").replace("[0.21, 0.21, 0.58]",
                                                                        "[0.24, 0.24, 0.52]")
    errors, r = _errors(doc)
    assert (12, "0.18") in errors and {p for ln, p in errors if ln == 14} == {"0.24", "0.52"}, \
        [f.describe() for f in r.findings]


def test_rows_of_another_step_are_not_judged():
    # the scores divided by their sum: no row is a softmax row, so the arrow is another step
    doc = DOC.replace("[0.42, 0.16, 0.42]", "[0.50, 0.00, 0.50]").replace("[0.16, 0.42, 0.42]", "[0.00, 0.50, 0.50]")\
        .replace("[0.21, 0.21, 0.58]", "[0.25, 0.25, 0.50]")
    errors, r = _errors(doc)
    assert errors == [], [f.describe() for f in r.findings]


SUM_THEN_ROW = """# 第一行的权重

X = [[1, 0], [0, 1], [1, 1]]，W_Q = W_K = W_V = I，除以 √2。

```
缩放后的第一行: [0.71, 0, 0.71]
  e^0.71 = 2.03, e^0 = 1, e^0.71 = 2.03
  和 = 5.06
  → [0.40, 0.20, 0.40]
```
"""


def test_row_after_a_sum_and_an_arrow_is_not_named_by_the_sum():
    # "和 = 5.06 → [0.40, 0.20, 0.40]": the row took the sum's name and was set aside as a row sum matching nothing
    r = check_document(SUM_THEN_ROW, fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert not [n for n in r.not_checked if n.line == 10], [n for n in r.not_checked]
