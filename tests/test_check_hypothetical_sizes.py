"""Scores that carry their scale in their own label, and sizes a later sentence varies.

Outside trial t193c (a C++ golden test whose comments work the numbers): "Raw scores (with 1/√2): [[√2,0],[0,√2]]"
then "After softmax: [[0.731,0.269],...]".  The scale the label writes was applied again, so the author's wrong
weights (softmax([1, 0]) instead of softmax([√2, 0])) held, and a slip in them was told 0.731 as the exact value.
A scale a start's own label writes is in it already (infer/starts.py, claims/softmax.py).

Outside trial t193e (notes in Traditional Chinese): "in one dimension ($d=1$) ... at $d=64$ the dot product sums 64
products", after an example of width 2, gave "wrong size: d_model is 2".  A symbol given two values or more near
by is a parameter the text varies (claims/aside.py).
"""

from check_helpers import error_places

SCALED_LABEL = """# Two tokens

```
// Q = [[2, 0], [0, 2]], K = [[1, 0], [0, 1]]
// Raw scores (with 1/√2): [[1.4142, 0], [0, 1.4142]]
// After softmax: [[0.804, 0.196], [0.196, 0.804]]
```
"""

VARIED = r"""# One example, then why we scale

$X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}$, no projections, no scale.

$A = \begin{bmatrix} 0.422 & 0.155 & 0.422 \\ 0.155 & 0.422 & 0.422 \\ 0.212 & 0.212 & 0.576 \end{bmatrix}$

## Why scale

In one dimension ($d=1$) a product of two entries is of order one; at $d=64$ the dot product adds 64 of them.
"""


def test_scores_labelled_with_their_scale_are_not_scaled_again():
    assert error_places(SCALED_LABEL) == []
    assert error_places(SCALED_LABEL.replace("[[0.804, 0.196]", "[[0.731, 0.269]")) == [(6, "0.731"), (6, "0.269")]


def test_a_size_the_text_varies_is_not_the_example_s():
    assert error_places(VARIED) == []
    assert error_places(VARIED.replace("0.212 & 0.576", "0.212 & 0.586")) == [(5, "0.586")]
