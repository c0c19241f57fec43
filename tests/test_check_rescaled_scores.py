"""Scores shown before and after the scale, each block with its softmax (t156c, two pages on why attention divides
by √d_k): "Scores: [...]", a blank line, "Softmax: [...]"; then "With scaling (divide by 8)" and the same two lines
for the scaled scores.  The second block's scores were read as another example's input, so a slip in them was
never seen, and the blank line between a block's two lines kept its softmax from being paired with its scores.
The scaled row is the first times the stated factor (claims/rescaled.py), and a blank line inside one block parts
nothing (claims/softmax.softmax_pairs).
"""

import numpy as np

from mha.check import check_document

DOC = """# Why divide by the square root of d_k

**Without scaling** (d_k = 64):
```
Scores:  [8.0, -2.4, 6.4, 1.6]

Softmax: [0.831, 0.000, 0.168, 0.001]
```

**With scaling** (divide by 8):
```
Scores:  [1.00, -0.30, 0.80, 0.20]

Softmax: [0.394, 0.107, 0.322, 0.177]
```

## The same with d_k = 256

```
Attention Scores:  [-12, 6, 18, -2]
After Softmax:     [0.00, 0.00, 1.00, 0.00]

With Scaling (÷ √256 = 16)
Attention Scores:  [-0.75, 0.38, 1.12, -0.12]
After Softmax:     [0.08, 0.25, 0.52, 0.15]
```
"""


def _softmax(x):
    e = np.exp(np.asarray(x, float) - max(x))
    return e / e.sum()


def test_the_numbers_are_what_numpy_gives():
    raw = np.array([8.0, -2.4, 6.4, 1.6])
    assert np.round(_softmax(raw), 3).tolist() == [0.831, 0.0, 0.168, 0.001]
    assert np.round(raw / 8, 2).tolist() == [1.0, -0.3, 0.8, 0.2]
    assert np.round(_softmax(raw / 8), 3).tolist() == [0.394, 0.107, 0.322, 0.177]
    raw = np.array([-12, 6, 18, -2])
    assert np.round(raw / 16, 2).tolist() == [-0.75, 0.38, 1.12, -0.12]
    assert np.round(_softmax(raw / 16), 2).tolist() == [0.08, 0.25, 0.52, 0.15]


def test_the_page_is_clean_and_the_scaled_rows_are_checked():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
    assert r.n_numbers >= 24


def test_a_slip_in_a_scaled_row_is_found_on_its_line():
    r = check_document(DOC.replace("[1.00, -0.30, 0.80", "[1.00, -0.30, 0.90"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(12, "0.90")], [f.describe() for f in r.findings]
    r = check_document(DOC.replace("[-0.75, 0.38, 1.12", "[-0.75, 0.48, 1.12"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(24, "0.48")], [f.describe() for f in r.findings]


def test_a_slip_in_a_softmax_after_a_blank_line_is_found():
    r = check_document(DOC.replace("[0.394, 0.107, 0.322", "[0.394, 0.117, 0.322"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.117")], [f.describe() for f in r.findings]


ZH = """# 为什么要缩放

```
假设 d_k = 16
原始分数: [12, 4, 2, -8]
除以 √16=4: [3.0, 1.0, 0.5, -2.0]
```
"""


def test_a_row_named_by_the_division_on_the_next_line_is_the_scaled_row():
    assert (np.array([12, 4, 2, -8]) / 4).tolist() == [3.0, 1.0, 0.5, -2.0]
    r = check_document(ZH, fmt="md")
    assert not r.errors and r.n_numbers >= 4, [f.describe() for f in r.findings]
    r = check_document(ZH.replace("[3.0, 1.0, 0.5", "[3.0, 1.5, 0.5"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, "1.5")], [f.describe() for f in r.findings]
