"""A statistic before and after a change, written with an arrow (t225a, an English lesson with a lab's printouts:
`scaled : 5.70e-02 -> 5.50e-02` in a table of gradient sizes, and "weight on `cat` went 0.2779 → 0.9998" about a
training run).  Each was judged as the worked example's value its words named, the scaled score and the weight
(0.0566 and 0.2785 there), and called wrong.  Either end of such a change is no value of the example
(claims/arith.py, readers/prose.py `_changed_from`); the example's own values are still judged.  My own tokens,
vectors and numbers, computed below with plain NumPy (not mha).  The page below checks clean before the change too
(its inference does not reach the lab's lines as the lesson's did); what it guards is that the reading of the
example survives them.  The reading rule itself is tested on the sentences."""

import numpy as np
import pytest

from check_helpers import error_places, line_of

X = {"red": [0.2, 0.0], "fox": [0.8, 0.2], "ran": [0.4, 0.6]}
W = np.diag([1.0, 0.5])


def _numbers():
    x = np.array(list(X.values()))
    q = k = x @ W
    s = k @ q[2] / np.sqrt(2)
    w = np.exp(s) / np.exp(s).sum()
    return q, s, w


def _page(w_fox=None):
    q, s, w = _numbers()
    rows = "\n".join(f"| {t} | `[{q[i, 0]:.2f}, {q[i, 1]:.2f}]` | `[{q[i, 0]:.2f}, {q[i, 1]:.2f}]` | "
                     f"`[{X[t][0]:.1f}, {X[t][1]:.1f}]` |" for i, t in enumerate(X))
    scores = "\n".join(f"q_ran · k_{t} = {s[i] * np.sqrt(2):.4f}   → /1.4142 = {s[i]:.4f}" for i, t in enumerate(X))
    weights = [f"{v:.4f}" for v in w]
    if w_fox:
        weights[1] = w_fox
    return f"""# Which word does `ran` look at?

W_Q = W_K = [[1.0, 0.0], [0.0, 0.5]] and W_V = I, so `q = [x₀, 0.5·x₁]`, the same for `k`, and `v = x`.

| Token | q | k | v |
|---|---|---|---|
{rows}

Scores for the query at `ran`, with √d_k = √2 = 1.4142:

```
{scores}
```

```
weights = [{", ".join(weights)}]
```

## After training

```
gradient size, unscaled: 4.10e-02 -> 8.20e-05
scaled                 : 6.30e-02 -> {s[0] * 1.012:.2e}
```

The weight on `fox` went {w[1] * 0.998:.4f} → 0.9990 over 4,000 steps.
"""


def test_the_numbers():
    _, s, w = _numbers()
    assert [f"{v:.4f}" for v in s] == ["0.0566", "0.2475", "0.1768"]
    assert abs(w.sum() - 1) < 1e-12 and f"{w[1]:.4f}" == "0.3626"


def test_changes_written_with_arrows_are_not_the_examples_values():
    assert error_places(_page()) == []


def test_a_slipped_weight_of_the_example_is_still_found():
    """(Before, one slipped weight in the query's only row of results left the start from Q, K and V unconfirmed,
    and nothing was checked: infer/search.py `_rows_of_one_query`.)"""
    text = _page(w_fox="0.3662")
    assert error_places(text) == [(line_of(text, "weights = ["), "0.3662")]


@pytest.mark.parametrize("before, after, changed", [
    ("weight on `cat` went", " → 0.9998.", True),
    ("weight on `cat` went 0.2779 → ", ".", True),
    ("pushes α_21 from", " up to 0.944", True),
    ("the weight on `cat` is", ", the largest", False),
    ("the scaled score is", " (rounded)", False),
])
def test_either_end_of_a_change_is_no_value(before, after, changed):
    from mha.check.readers.prose import _changed_from
    assert _changed_from(before, after) is changed
