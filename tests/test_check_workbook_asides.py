"""A course workbook's answers around a causal example: asides that are no claims about it.

Outside trial t137f: on a correct page, four false findings, each from a pattern of its own:
* `` `Linear(8, 8)` has `8 × 8 = 64` weights and `8` biases: **72** `` compared 72 with 64, and "formula at d = 16:
  3232" compared 3232 with 16: a colon after a number opens what follows, it equates nothing (claims/arith.py);
* "the biggest weight went down (`0.8438` to `0.7337`)" judged 0.8438, the weight before the change (the unscaled
  softmax), as the scaled one (here `0.5761` to `0.5035`): the first value of "(x to y)" is the value before a change (readers/prose.py);
* a printout "scaled scores, row 2: [...]" made before the mask was applied, judged against the masked scores
  (its last entry -inf): a printed row whose masked cells hold the live scores is the row before the mask
  (claims/premask.py).
"""

import pytest

from mha.check import check_document

PAGE = """# Week 9 answers

## The causal example

X = [[1, 0], [0, 1], [1, 1]] and W_Q = W_K = W_V = I, so Q = K = V = X; d = 2, with a causal mask.

```text
scaled scores, row 2: [0.0, 0.707, 0.707]
masked weights, row 2: [0.3302, 0.6698, 0.0]
masked weights, row 3: [0.2483, 0.2483, 0.5035]
output, row 3: [0.7517, 0.7517]
```

**9.4.** Without the scale the third row's scores [1, 1, 2] would give weights [0.2119, 0.2119, 0.5761]; divided by
√2 they give [0.2483, 0.2483, 0.5035]. The biggest weight went **down** (`0.5761` to `0.5035`): the softmax is softer.

## Counting parameters

**9.5.** `Linear(8, 8)` has `8 × 8 = 64` weights and `8` biases: **72**.

```text
formula at d = 16: 3232
```
"""


def test_the_workbook_page_has_no_finding():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 16, r.n_numbers
    # the scores printed before the mask are judged as that row, not set aside (or found wrong) against masked S
    assert 8 not in [n.line for n in r.not_checked], [n.describe() for n in r.not_checked]


@pytest.mark.parametrize("good, bad, line", [
    ("[0.3302, 0.6698, 0.0]", "[0.3302, 0.6689, 0.0]", 9),
    ("= 64` weights", "= 46` weights", 19),
])
def test_slips_near_the_asides_are_found(good, bad, line):
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]
    assert not [f for f in r.errors if f.line != line], [f.describe() for f in r.errors]


def test_the_value_before_a_change_is_not_read():
    from mha.check.readers import read_document
    doc = read_document("The biggest weight went **down** (`0.5761` to `0.5035`), and fell from 0.40 to 0.25.\n", "md")
    said = [p.expr.num.value for c in doc.chains for p in c.parts if hasattr(p, "expr") and hasattr(p.expr, "num")]
    assert 0.5035 in said and 0.5761 not in said and 0.40 not in said, said
