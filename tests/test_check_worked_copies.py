"""A weight worked out from the rounded exponentials and their rounded sum (`3.32 / 7.82 = 0.425`, one unit off the
exact 0.424), then printed bare in a later table and a recap list (a public page): each bare copy was an error
while the working itself held; the copies follow from it (notes)."""

from mha.check import check_document

PAGE = """# One query, four keys

Scores: `[0.4, 0, 1.2, 0.7]`, no scaling.

| Key | Score | e^score |
|---|---|---|
| a | 0.4 | 1.49 |
| b | 0 | 1.00 |
| c | 1.2 | 3.32 |
| d | 0.7 | 2.01 |

**Sum:** `1.49 + 1.00 + 3.32 + 2.01 = 7.82`

| Key | Weight |
|---|---|
| a | 1.49 / 7.82 = **0.191** |
| b | 1.00 / 7.82 = **0.128** |
| c | 3.32 / 7.82 = **0.425** |
| d | 2.01 / 7.82 = **0.257** |

In short:

```
Weights: [0.191, 0.128, {w}, 0.257]
```
"""


def test_a_bare_copy_of_a_weight_worked_from_rounded_values_is_a_note():
    r = check_document(PAGE.format(w="0.425"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(PAGE.format(w="0.427"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(24, "0.427")], [f.describe() for f in r.findings]


EXPS = """# One row by hand

Divided by $\\sqrt{{4}} = 2$ the scores are $[0.5,\\ 1.0,\\ 0.5]$. $e^{{0.5}} = 1.6487$, $e^{{1}} = {e1}$, and their sum is
$1.6487\\times2 + 2.7183 = 6.0157$.
"""


def test_a_sum_written_after_the_exponentials_is_not_one_more_exponential():
    """`e^{0.5} = 1.6487, e^{1} = 2.7183`, then the sum with the repeated term folded (`1.6487×2 + 2.7183 =
    6.0157`): the run of exponentials was read on into the sum, which was called exp(0.5) (a public page)."""
    r = check_document(EXPS.format(e1="2.7183"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(EXPS.format(e1="2.7193"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(3, "2.7193")], [f.describe() for f in r.findings]
