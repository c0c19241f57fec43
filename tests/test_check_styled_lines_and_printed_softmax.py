"""Two Markdown forms that hid their numbers (t271d):

- a line wrapped in a tag that only styles it (GitBook's `<mark style="...">**...**</mark>`, `<span>`, `<font>`):
  the tags stayed in the text and the line's arithmetic was not read;
- a torch printout pasted under the code that made it, a batch of one (`tensor([[[...]]],
  grad_fn=<SoftmaxBackward0>)`), two rows of three: a slip in one row left one row of two summing to 1, too few to
  call it weights, and the rows were not "whole" (not square), so the slipped sum went unreported; torch says the
  rows are a softmax's, over the last axis as its code says.

My own scores and weights."""

import numpy as np

from check_helpers import error_findings

_STYLED = """## Scaling the scores

* <mark style="color:purple;background-color:purple;">**Scores [5, 3] without scaling**</mark>
* <mark style="color:purple;background-color:purple;">**Softmax ([ 5 3]) = [{w1}, {w2}]**</mark>
* <span style="color:red">the first key takes almost all of the weight</span>
"""


def test_a_styled_line_that_holds():
    assert error_findings(_STYLED.format(w1="0.88", w2="0.12")) == []


def test_a_slip_in_a_styled_line_is_found():
    found = error_findings(_STYLED.format(w1="0.83", w2="0.12"))
    assert [(f.line, f.printed) for f in found] == [(4, "0.83")]


_S = np.array([[[0.9, 0.2, 0.4], [0.1, 0.7, 0.3]]])


def _printed_weights(slip=None):
    e = np.exp(_S - _S.max(axis=-1, keepdims=True))
    A = e / e.sum(axis=-1, keepdims=True)
    cells = [[f"{x:.4f}" for x in row] for row in A[0]]
    if slip is not None:
        cells[0][0] = slip
    return f"""## Cross-attention in torch

```python
weights = F.softmax(scores, dim=-1)   # [1, 2, 3]
print("Attention weights:\\n", weights)
```

    Attention weights:
     tensor([[[{", ".join(cells[0])}],
             [{", ".join(cells[1])}]]], grad_fn=<SoftmaxBackward0>)
"""


def test_a_printed_softmax_of_a_batch_holds():
    assert error_findings(_printed_weights()) == []


def test_a_slipped_row_of_a_printed_softmax_is_found():
    e = np.exp(_S - _S.max(axis=-1, keepdims=True))
    right = (e / e.sum(axis=-1, keepdims=True))[0, 0, 0]
    found = error_findings(_printed_weights(slip=f"{right + 0.06:.4f}"))
    assert [f.line for f in found] == [9]
    assert "sums to 1.0600" in found[0].cause
