"""Eight decimals printed by NumPy from float64, and the same example computed and printed in float32.

A float32 printout's eighth digit is noise, so every number of eight digits was read with a few float32 units of
room; on float64 printouts that room let a slip in the last two digits pass (0.45186276 → 0.45186286 on a public
page).  A number no float32 prints (0.49601913: the float32 nearest to it prints 0.49601912) says the array is
float64, and then its numbers are read at their printed precision."""

import pytest

from mha.check import check_document
from mha.check.numbers import Num, _not_float32

F64 = """# One head, by NumPy (float64)

```python
import numpy as np
Q = np.array([[1.0, 0.5], [0.2, 1.5], [0.7, 0.3]])
K = np.array([[0.4, 1.1], [1.2, 0.3], [0.5, 0.5]])
V = np.array([[1.0, 2.0], [0.5, 0.1], [1.5, 0.7]])
```

Attention weights, softmax(Q Kᵀ / √2):

```
[[0.3129871 , 0.41530147, 0.27171144],
 [0.49601913, 0.23775089, 0.26622998],
 [0.31455585, 0.39442768, 0.29101648]]
```

Output, weights · V:

```
[[0.92820499, 0.85770235],
 [1.01423955, 1.20217434],
 [0.9482944 , 0.87226599]]
```
"""

F32 = F64.replace("(float64)", "(float32)").replace(
    """[[0.3129871 , 0.41530147, 0.27171144],
 [0.49601913, 0.23775089, 0.26622998],
 [0.31455585, 0.39442768, 0.29101648]]""",
    """[[0.31298712, 0.41530147, 0.27171144],
 [0.49601912, 0.23775087, 0.26622996],
 [0.31455582, 0.39442766, 0.29101646]]""").replace(
    """[[0.92820499, 0.85770235],
 [1.01423955, 1.20217434],
 [0.9482944 , 0.87226599]]""",
    """[[0.928205  , 0.8577024 ],
 [1.0142395 , 1.2021743 ],
 [0.94829434, 0.87226593]]""")


@pytest.mark.parametrize("text, float32", [
    ("0.33333333", False), ("0.33333334", True),      # NumPy's float32 ⅓
    ("0.66666669", True),                             # torch's `%.8f` of float32 ⅔
    ("0.6666667", True), ("1.00000000", True), ("12.3456789", False)])
def test_which_numbers_a_float32_can_print(text, float32):
    assert _not_float32(Num.parse(text, 1)) is not float32


def test_both_printouts_check_clean():
    for doc in (F64, F32):
        r = check_document(doc, fmt="md")
        assert not r.errors and r.n_numbers >= 15, ([f.describe() for f in r.errors], r.n_numbers)


@pytest.mark.parametrize("old, new, line", [
    ("0.23775089", "0.23775099", 14),        # the second-to-last digit of a weight
    ("1.20217434", "1.20217437", 22),        # the last digit of an output
])
def test_a_slip_in_the_last_digits_of_float64_is_found(old, new, line):
    r = check_document(F64.replace(old, new), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(line, new)], [f.describe() for f in r.findings]


def test_the_same_change_in_float32_is_noise():
    """Three float32 units (0.23775087 → 0.23775090) are what float32 sums carry: no slip in a float32 printout."""
    r = check_document(F32.replace("0.23775087", "0.23775090"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
