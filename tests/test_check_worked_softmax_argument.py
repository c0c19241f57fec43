"""A softmax whose argument is written as arithmetic, then as the numbers it gives, then the weights (t154a, an
interview page): `softmax([20/√64, 14/√64, …])`, `= softmax([2.50, 1.75, …])`, `≈ [w]`.  A bracket of `a/√d`
cells was not read as an array, so a slip in the middle line was never seen there; the weights, judged against the
slipped numbers, were blamed instead, though they are right.  The argument's arithmetic is now checked entry by
entry (claims/vector.restated_argument), and a weight is wrong only when it is the softmax of neither the argument
as printed nor as worked right (claims/softmax, claims/applied).
"""

import numpy as np

from mha.check import check_document

DOC = """## Why divide by the square root of d

Large dot products make softmax nearly one-hot:

```
softmax([20, 14, 10, 4]) ≈ [1.00, 0.00, 0.00, 0.00]
```

Divide each score by √64 = 8 first:

```
softmax([20/√64, 14/√64, 10/√64, 4/√64])
= softmax([2.50, 1.75, 1.25, 0.50])
≈ [0.53, 0.25, 0.15, 0.07]
```
"""


def _softmax(x):
    e = np.exp(np.asarray(x, float) - max(x))
    return e / e.sum()


def test_the_numbers_are_what_numpy_gives():
    assert np.allclose(np.array([20, 14, 10, 4]) / np.sqrt(64), [2.5, 1.75, 1.25, 0.5])
    assert np.round(_softmax([20, 14, 10, 4]), 2).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert np.round(_softmax([2.5, 1.75, 1.25, 0.5]), 2).tolist() == [0.53, 0.25, 0.15, 0.07]
    # with the slip planted below (1.75 → 1.95) the weights would be [0.50, 0.29, 0.14, 0.07]
    assert np.round(_softmax([2.5, 1.95, 1.25, 0.5]), 2).tolist() == [0.50, 0.29, 0.14, 0.07]


def test_a_right_page_is_clean_and_its_argument_is_checked():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
    assert r.n_numbers >= 12


def test_a_slip_in_the_worked_argument_is_found_there_not_in_the_weights():
    r = check_document(DOC.replace("2.50, 1.75, 1.25", "2.50, 1.95, 1.25"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(13, "1.95")], [f.describe() for f in r.findings]


def test_a_slipped_weight_is_still_found():
    r = check_document(DOC.replace("[0.53, 0.25, 0.15", "[0.53, 0.23, 0.15"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.23")], [f.describe() for f in r.findings]
