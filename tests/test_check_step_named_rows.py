"""Two rows in a code block, each named by the step it is (t226d, an MDX post on attention and the KV cache:
`raw:     [0.2, 3.1, 1.4, 2.7]` over `softmax: [.03, .52, .10, .35]`).  The aligned rows were read as one 2×4
matrix named `raw`, so the page was refused as "the inputs only", and a slip in the weights was missed.  Rows
named by steps are vectors of their own (readers/drawn.py `_steps_named`), and a row named `softmax` right under
the scores is their softmax (readers/softmaxsaid.py `tie_step_rows`).  Rows named by tokens still make one matrix.
My own scores, computed below with plain NumPy (not mha)."""

import numpy as np

from check_helpers import error_places, line_of

PAGE = """# One query's weights

```text
  raw:     [1.0, 2.5, 0.3, 1.8]
  softmax: [{w}]   <- the weights, summing to 1
```
"""


def _weights():
    s = np.array([1.0, 2.5, 0.3, 1.8])
    e = np.exp(s - s.max())
    return e / e.sum()


def _fmt(w):
    return ", ".join(f"{v:.2f}".lstrip("0") for v in w)


def test_the_weights():
    assert _fmt(_weights()) == ".12, .55, .06, .27"


def test_the_clean_rows_check_clean():
    assert error_places(PAGE.format(w=_fmt(_weights()))) == []


def test_a_slipped_weight_is_found():
    text = PAGE.format(w=".12, .35, .06, .27")
    assert error_places(text) == [(line_of(text, "softmax:"), ".35")]


def test_rows_named_by_tokens_are_one_matrix():
    from mha.check.readers import read_document
    doc = read_document("```\n  the: [1.0, 0.0]\n  cat: [0.0, 1.0]\n```\n", "md")
    assert [a.n_rows for a in doc.arrays] == [2]
