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


EXPONENTIALS = r"""# A softmax that one score takes over

Given scores = [10, 0, -5], take their softmax by hand.

### 1. The exponentials

- $e^{10} = 22026.4658$
- $e^{0} = 1.0000$
- $e^{-5} = 0.0067$

### 2. Their sum

$$\text{Sum} = 22026.4658 + 1.0000 + 0.0067 = 22027.4725$$

### 3. Each over the sum

$$\text{softmax}(10) = \frac{22026.4658}{22027.4725} = 0.999954 \approx 99.995\%$$

$$\text{softmax}(0) = \frac{1.0000}{22027.4725} = 0.0000454$$

### All three

$$\text{softmax}([10, 0, -5]) = [0.999954, 0.0000454, 0.0000003]$$

**Check:** $0.999954 + 0.0000454 + 0.0000003 = 0.9999997 \approx 1$

### Why the first wins

- $e^{10} = 22,026$ is more than twenty thousand times $e^{0} = 1$
- the rest is shared by the others

### Scaled by √4

Dividing by $\sqrt{4} = 2$ gives the scaled scores $[5, 0, -2.5]$:

- $e^5 = 148.41$
- $e^0 = 1.00$
- $e^{-2.5} = 0.082$

Sum = 149.492

Softmax output: [0.9928, 0.0067, 0.0005]
"""


def test_exponentials_listed_one_a_line_then_their_sum():
    """- e^5 = 148.41 / - e^0 = 1.00 / - e^{-2.5} = 0.082, then "Sum = 149.492": the sum of the rounded
    exponentials printed just above (the exact sum is 149.495), a note and no slip; a sum that is neither is one."""
    r = check_document(EXPONENTIALS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert [(f.line, f.severity) for f in r.findings] == [(40, "note")], [f.describe() for f in r.findings]
    r = check_document(EXPONENTIALS.replace("Sum = 149.492", "Sum = 149.592"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(40, "149.592")], [f.describe() for f in r.findings]


def test_a_lone_exponential_in_prose_is_judged_as_itself():
    """"e^{10} = 22,026 is twenty thousand times e^0": e^10 rounded to units; wrong only if it is not e^10."""
    r = check_document(EXPONENTIALS.replace("$e^{10} = 22,026$", "$e^{10} = 22,036$"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(29, "22036")], [f.describe() for f in r.findings]


def _far_page() -> str:
    filler = "\n".join(f"Paragraph {i} of the notes on another topic." for i in range(60))
    return f"""# Exam notes

## Exercise 1: a score matrix

Given the scores

```
S = [[0.5, 0.3, 0.1, 0.2],
     [0.0, 0.4, 0.2, 0.6]]
```

the weights, row by row, are

```
A = [[0.3096, 0.2535, 0.2075, 0.2294],
     [0.1807, 0.2695, 0.2207, 0.3292]]
```

## Exercise 2: recurrent networks

{filler}

## Exercise 3: residual connections

{filler}

### A worked sum

```
x = [1, 2, 3, 4]
F(x) = [0.5, -0.5, 0.1, 0.2]
out = [1.5, 1.5, 3.1, 4.2]
```
"""


def test_a_vector_far_after_the_example_is_another_sections():
    """F(x) of a residual sum, two sections and 130 lines after the scores, agrees with their first row in three
    entries of four: it was called a wrong score.  Far after the example, unnamed, it is not judged."""
    page = _far_page()
    r = check_document(page, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    line = page.split("\n").index("F(x) = [0.5, -0.5, 0.1, 0.2]") + 1
    assert any(n.line == line and "far after" in n.reason for n in r.not_checked), r.not_checked
    r = check_document(page.replace("[0.1807, 0.2695", "[0.1807, 0.2659"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.2659"], [f.describe() for f in r.findings]


def test_a_sum_after_a_wrong_exponential_is_no_rounding():
    """With e^5 printed wrong (148.51), the sum of the printed list (149.592) carries that slip: not "a sum of
    rounded terms"."""
    text = EXPONENTIALS.replace("$e^5 = 148.41$", "$e^5 = 148.51$").replace("Sum = 149.492", "Sum = 149.592")
    r = check_document(text, fmt="md")
    assert 36 in [f.line for f in r.errors], [f.describe() for f in r.findings]
    assert not any(f.line == 40 and "rounded terms" in (f.cause or "") for f in r.findings), \
        [f.describe() for f in r.findings]


COLUMNS = """# What each position predicts

```
  token:    P("a")    P("dog")   P("ran")
            = 0.85    = 0.60     = 0.55
```

The first weight of the softmax is 0.2 + 0.3 = 0.5.
"""


def test_values_side_by_side_under_columns_are_no_chain():
    """`= 0.85   = 0.60   = 0.55` under three column labels (outside trial t129d): read as one chain, 0.60 was
    called an arithmetic slip for 0.85.  Three bare numbers in a row are values set side by side."""
    r = check_document(COLUMNS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_result_copied_wrong_down_a_chain_is_still_judged():
    r = check_document(COLUMNS.replace("= 0.5.", "= 0.5 = 0.6."), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(8, "0.6")], [f.describe() for f in r.findings]


SHAPES = """# Shapes through one head

```
Per-head projection:
  Q_i = Q · W_i^Q    ->  (n × 512) · (512 × 64)  =  (n × 64)
Output projection:
  out = Concat · W^O ->  (n × 512) · (512 × 512) = (n × 512)
```

The first weight: $\\frac{2.7}{2.7 + 7.4} = \\frac{2.7}{10.1} = 0.27$.
"""


def test_shapes_multiplied_in_n_are_no_arithmetic():
    """`(n × 512) · (512 × 64) = (n × 64)` (outside trial t131a): compared factor by factor, 512 × 64 = 32768 was
    held against the 64 of the result's shape (4 false findings).  Both sides in n: shapes, not arithmetic."""
    r = check_document(SHAPES, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_fractions_written_twice_are_still_compared_part_by_part():
    r = check_document(SHAPES.replace("{10.1}", "{10.4}"), fmt="md")
    assert [f.printed for f in r.errors] == ["10.4"], [f.describe() for f in r.findings]
