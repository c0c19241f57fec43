"""A list whose every item is worked out in place, `[0.36/2=0.18, 0.52/2=0.26, 0.10/2=0.05]`: the vector of the
results, and a small sum per item (a slip in an item's result is one finding on its line, not one for the vector
and one for the sum); and a softmax written as its closed form (`\\frac{e^{0.6}}{e^{0.6}+e^{0.5}}`), which tells
which scores it is taken of: the masked scores as printed, not scaled once more."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.readers.common import Segment
from mha.check.readers.workedlists import worked_lists

SCORES = [0.36, 0.52, 0.10]
E = [np.exp(s / 2) for s in SCORES]
TOTAL = sum(round(e, 2) for e in E)
W = [round(e, 2) / round(TOTAL, 2) for e in E]

WORKED = f"""# One token's row

```
√d_k = √4 = 2

Scaled scores for "sun":
[0.36/2=0.18, 0.52/2=0.26, 0.10/2=0.05]

exp(scaled) = [{E[0]:.2f}, {E[1]:.2f}, {E[2]:.2f}]
sum = {TOTAL:.2f}

Weights = [{E[0]:.2f}/{TOTAL:.2f}={W[0]:.2f}, {E[1]:.2f}/{TOTAL:.2f}={W[1]:.2f}, {E[2]:.2f}/{TOTAL:.2f}={W[2]:.2f}]
```
"""


def test_the_line_becomes_the_vector_and_one_sum_per_item():
    seg = worked_lists(Segment("x = [0.36/2=0.18, 0.52/2=0.26]\nnext", 10, "output"))
    first, second = seg.text.split("\n")
    assert first.startswith("x = [0.18, 0.26];") and "0.36/2 = 0.18" in first and "0.52/2 = 0.26" in first
    assert second == "next" and seg.line_of(len(first) + 1) == 11


def test_a_clean_worked_list_holds():
    r = check_document(WORKED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 9


@pytest.mark.parametrize("find, replace, line", [("0.52/2=0.26", "0.52/2=0.62", 7),
                                                 (f"={W[1]:.2f},", f"={W[1] + 0.2:.2f},", 12)])
def test_a_slip_in_an_item_is_one_finding_on_its_line(find, replace, line):
    r = check_document(WORKED.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


CLOSED = r"""# A causal head, worked by hand

The scaled scores with the mask added:

$$
\text{Masked scores} = \begin{bmatrix} 0.45 & -\infty & -\infty \\ 0.7 & 0.2 & -\infty \\ 0.1 & 0.4 & 0.3 \end{bmatrix}
$$

Each row's softmax, written out:

$$
A = \begin{bmatrix} 1 & 0 & 0 \\ \frac{e^{0.7}}{e^{0.7} + e^{0.2}} & \frac{e^{0.2}}{e^{0.7} + e^{0.2}} & 0 \\
\frac{e^{0.1}}{e^{0.1} + e^{0.4} + e^{0.3}} & \frac{e^{0.4}}{e^{0.1} + e^{0.4} + e^{0.3}} & \frac{e^{0.3}}{e^{0.1} + e^{0.4} + e^{0.3}} \end{bmatrix}
$$

Roughly, the weights are

$$
A \approx \begin{bmatrix} 1 & 0 & 0 \\ 0.53 & 0.47 & 0 \\ 0.32 & 0.34 & 0.33 \end{bmatrix}
$$

with $d_k = 4$ for the head.
"""


def test_closed_forms_of_the_printed_scores_are_evidence_for_no_second_scale():
    """The rough weights (worked, it seems, with the scores divided by d_k once more) are not what the closed forms
    say; the closed forms name their scores exactly, so they decide the scale, and they hold."""
    r = check_document(CLOSED, fmt="md")
    assert not [f for f in r.errors if f.line in (12, 13, 14)], [f.describe() for f in r.errors]
    assert "none" in r.configuration.get("scale", "") or "as printed" in r.configuration.get("scale", "")


EXPS = r"""# Exponentials of one row

Row 1: $\exp([0, 2, 1]) = [1.000,\ 7.389,\ 2.718]$, so the weights are $[0.0900, 0.6652, 0.2447]$.
"""


def test_the_exponentials_of_a_written_row_are_judged_entry_by_entry():
    assert not check_document(EXPS, fmt="md").errors
    r = check_document(EXPS.replace("7.389", "7.398"), fmt="md")
    assert [f.printed for f in r.errors] == ["7.398"], [f.describe() for f in r.errors]
