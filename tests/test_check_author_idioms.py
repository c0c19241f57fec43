"""What authors mean, not what a calculator reads: an angle written in degrees on its line (`θ = 90° → cos(90) = 0`),
an overflow written as infinity (`exp(400) ≈ ∞`, past float32's largest number), and a row of weights whose every
wrong entry is its exact value cut off (0.1387 printed 0.13); each still catches a real slip."""

import pytest

from mha.check import check_document

DEGREES = """# Why the dot product

```
θ = 0°   (same direction)   → cos(0) = 1
θ = 90°  (perpendicular)    → cos(90) = 0
θ = 180° (opposite)         → cos(180) = -1
```
"""

OVERFLOW = """# Why subtract the max

```
exp(400) ≈ ∞     → it overflows
exp(1)   ≈ 2.72
```
"""

CUT = """# Normalising

```
scores  = [0.2, 1.1, 0.7, 0.4]
# after the softmax:
weights = [0.15, 0.38, 0.26, 0.19]
```
"""


@pytest.mark.parametrize("text", [DEGREES, OVERFLOW, CUT], ids=["degrees", "overflow", "cut-off"])
def test_the_idiom_is_no_finding(text):
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("text, find, replace", [(DEGREES, "cos(90) = 0", "cos(90) = 1"),
                                                 (OVERFLOW, "exp(1)   ≈ 2.72", "exp(1)   ≈ 2.27"),
                                                 (CUT, "[0.15, 0.38, 0.26, 0.19]", "[0.15, 0.38, 0.62, 0.19]")],
                         ids=["degrees", "overflow", "cut-off"])
def test_a_real_slip_beside_the_idiom_is_found(text, find, replace):
    r = check_document(text.replace(find, replace), fmt="md")
    assert len(r.errors) >= 1 and all(replace.split()[-1].strip("[]") in f.describe() or f.line == r.errors[0].line
                                      for f in r.errors), [f.describe() for f in r.errors]
