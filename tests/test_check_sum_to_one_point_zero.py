"""A caption "Softmax → probabilities (sum to 1.0):" between the scaled scores and their weights.  "sum to 1" was
taken out as the softmax's property, but its ".0" was left as a number on the line, which then stood between the
scores and the weights: the pair was not read, and wrong weights passed as "not checked" (t210c, course notes)."""

import numpy as np

from check_helpers import error_places, line_of


def page(weights: str) -> str:
    return f"""## One query over three words

```
Scale: divide by √2 ≈ 1.41
→ Scaled scores: [0.57, 0.14, 0.35]

Softmax → probabilities (sum to 1.0):
→ Attention weights: {weights}
```
"""


def test_weights_under_a_sum_to_one_caption_are_judged_against_their_scores():
    w = np.exp([0.57, 0.14, 0.35]) / np.exp([0.57, 0.14, 0.35]).sum()
    right = "[" + ", ".join(f"{x:.2f}" for x in w) + "]"
    assert error_places(page(right)) == []
    text = page("[0.45, 0.20, 0.35]")             # every weight wrong: only the pair with the scores tells
    assert error_places(text) == [(line_of(text, "Attention weights"), p) for p in ("0.45", "0.20", "0.35")]
