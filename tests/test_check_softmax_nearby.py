"""Raw scores and their weights a few lines apart, with a comment between them that names the softmax
(`raw_scores = [...]`, `# after the softmax:`, `weights = [...]`): the weights are judged as the softmax of those
scores.  A comment that gives a number of its own (a temperature, a scale) leaves the pair alone."""

import numpy as np
import pytest

from mha.check import check_document

SCORES = [1.2, 0.4, -0.3]
_p = np.exp(SCORES) / np.exp(SCORES).sum()


def _doc(weights: str, between: str = "# after the softmax they become:") -> str:
    return f"""# Scores into weights

The first score row comes from an earlier lesson.

```python
scores = [2.0, 0.5]
print(softmax(scores))  # [{np.exp(2) / (np.exp(2) + np.exp(0.5)):.3f}, {np.exp(0.5) / (np.exp(2) + np.exp(0.5)):.3f}]
```

Another token:

```python
# how much the word "river" attends to the three words
raw_scores = [{SCORES[0]}, {SCORES[1]}, {SCORES[2]}]

{between}
attention_weights = [{weights}]
```
"""


RIGHT = ", ".join(f"{x:.2f}" for x in _p)


def test_weights_named_by_a_comment_between_hold_when_right():
    r = check_document(_doc(RIGHT), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_made_up_weights_under_a_softmax_comment_are_found():
    r = check_document(_doc("0.60, 0.30, 0.10"), fmt="md")
    assert r.errors and {f.line for f in r.errors} == {17}, [f.describe() for f in r.errors]


@pytest.mark.parametrize("between", ["# softmax at temperature 0.5:", "# softmax of the scores / 2:"])
def test_a_comment_with_a_number_of_its_own_leaves_the_pair_alone(between):
    r = check_document(_doc("0.60, 0.30, 0.10", between), fmt="md")
    assert not [f for f in r.errors if f.line == 17], [f.describe() for f in r.errors]


def test_weights_that_do_not_sum_to_one_under_a_softmax_comment_are_found():
    r = check_document(_doc("0.50, 0.20, 0.10"), fmt="md")
    assert {f.line for f in r.errors} == {17}, [f.describe() for f in r.errors]


UNNAMED = """# One row by hand

```
Scale: divide by √2 ≈ 1.41
[0.36/1.41=0.26, 0.10/1.41=0.07, 0.52/1.41=0.37]

Softmax (into probabilities):
Attention weights = [WEIGHTS]
```
"""


def _holds_then_caught(template: str, row: list[float], decimals: int, wrong: str, line: int) -> None:
    """The template with the softmax of `row` (to `decimals`) checks clean; with `wrong` it draws errors on `line`."""
    p = np.exp(row) / np.exp(row).sum()
    assert not check_document(template.replace("WEIGHTS", ", ".join(f"{x:.{decimals}f}" for x in p)), fmt="md").errors
    r = check_document(template.replace("WEIGHTS", wrong), fmt="md")
    assert r.errors and {f.line for f in r.errors} == {line}, [f.describe() for f in r.errors]


def test_unnamed_scaled_scores_above_a_softmax_line_are_the_scores_of_the_weights_below():
    _holds_then_caught(UNNAMED, [0.26, 0.07, 0.37], 2, "0.40, 0.25, 0.35", 8)


ARROWS = """# Why scale

```python
# with large scores the softmax saturates:
#   [100, 1, 1] → softmax → [0.99999, 0.00001, 0.00001]
#   [4, 1, 1]   → softmax → [WEIGHTS]
```
"""


def test_an_arrow_through_softmax_pairs_the_two_rows_and_a_saturated_row_is_an_idiom():
    _holds_then_caught(ARROWS, [4.0, 1.0, 1.0], 3, "0.90, 0.05, 0.05", 6)
