"""Sentences and lines near a worked example that state numbers without claiming them of it.

Each was a false finding on a public page (outside trials t121):

* "equal odds would need z_a = z_b, that is 2.4 = 1.9, which no temperature gives": two given numbers set equal
  to show a condition cannot hold, read as an arithmetic line that should give 2.4;
* "the numbers shown are truncated" above `... = 0.9708 ≈ 0.9`: the author's stated convention, read as a
  rounding slip (0.9708 rounds to 1.0);
* `logits = np.array([4.0, 2.0, 1.0])` typed into a temperature demo: a program's input, taken for the first row
  of the example's scores because its name says logits and a 2 and a 1 agree;
* "Python prints `0.960`": the word "prints" lost its "print" like a call `print(`, and the "s" left over
  named the scores."""

import pytest

from mha.check import check_document

PAGE = r"""# One head, three tokens, then the softmax on its own

| token | q | k | v |
|---|---|---|---|
| 1 | [1, 1] | [2, 1] | [1, 0] |
| 2 | [0, 1] | [1, 1] | [0, 1] |
| 3 | [1, 0] | [0, 1] | [1, 1] |

Scores $QK^T$:

```
[[3, 2, 1],
 [1, 1, 1],
 [2, 1, 0]]
```

Weights, the softmax of the scores over $\sqrt{2}$:

```
[[0.576, 0.284, 0.140],
 [0.333, 0.333, 0.333],
 [0.576, 0.284, 0.140]]
```

Outputs:

```
[[0.716, 0.424],
 [0.667, 0.667],
 [0.716, 0.424]]
```

## Temperature

Take three logits $z_a = 2.4$, $z_b = 1.9$, $z_c = 0.5$. At $T = 1$ their softmax is [0.5694, 0.3454, 0.0852].

Could some $T$ make a and b equally likely? It would need $z_a / T = z_b / T$, that is $2.4 = 1.9$, which no
temperature gives: dividing by $T$ keeps the order of the logits.

```python
import numpy as np

logits = np.array([4.0, 2.0, 1.0])
for T in (0.5, 1.0, 2.0):
    p = np.exp(logits / T) / np.exp(logits / T).sum()
```

## Cosine, an exercise

For $u = (3, 4)$ and $w = (4, 3)$ your paper should say $24 / (5 \times 5) = 0.960$ and Python prints `0.960`.
"""

TRUNCATED = r"""# Dot products by hand

```
x1 = [0.41, 0.62, 0.50]
x2 = [0.52, 0.73, 0.61]
x3 = [0.35, 0.12, 0.28]
```

The score $w_{ij}$ is the dot product of $x_i$ and $x_j$. The numbers shown for the second query are truncated:

$$w_{21} = (0.52 \times 0.41) + (0.73 \times 0.62) + (0.61 \times 0.50) = 0.9708 \approx 0.9$$

$$w_{22} = (0.52 \times 0.52) + (0.73 \times 0.73) + (0.61 \times 0.61) = 1.1754$$

$$w_{23} = (0.52 \times 0.35) + (0.73 \times 0.12) + (0.61 \times 0.28) = 0.4404$$

The weights, softmax of the unscaled scores row by row:

| | x1 | x2 | x3 |
|---|---|---|---|
| x1 | 0.3541 | 0.4190 | 0.2270 |
| x2 | 0.3552 | 0.4358 | 0.2090 |
| x3 | 0.3386 | 0.3677 | 0.2936 |
"""


def test_the_page_checks_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 20, r.n_numbers


@pytest.mark.parametrize("old, new, line", [
    ("[[0.576, 0.284, 0.140],", "[[0.576, 0.248, 0.140],", 20),
    ("[0.5694, 0.3454, 0.0852]", "[0.5694, 0.3445, 0.0852]", 35),
    ("= 0.960$", "= 0.940$", 50),
])
def test_a_slip_is_still_found(old, new, line):
    assert old in PAGE
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_a_truncation_the_text_declares_is_its_convention():
    r = check_document(TRUNCATED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.line == 11 and "truncated" in n.reason for n in r.not_checked), r.not_checked


def test_without_the_declaration_the_cut_is_a_slip():
    r = check_document(TRUNCATED.replace(" The numbers shown for the second query are truncated:", ""), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(11, "0.9")], [f.describe() for f in r.findings]


def test_a_truncation_word_about_something_else_declares_nothing():
    """"sequences are truncated to 512 tokens" says nothing of how numbers are printed."""
    text = TRUNCATED.replace("The numbers shown for the second query are truncated:",
                             "Long sequences are truncated to 512 tokens.")
    r = check_document(text, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(11, "0.9")], [f.describe() for f in r.findings]


@pytest.mark.parametrize("text, shown", [("prints", None), ("print(scores)", "Q Kᵀ"), ("print scores", "Q Kᵀ"),
                                         ("printA", None), ("print(weights)", "A")])
def test_a_print_call_is_taken_off_but_not_the_word_prints(text, shown):
    from mha.check import labels as lb
    r = lb.parse_label(text)
    assert (r.show() if r is not None else None) == shown
