"""An exercise that adds the scale on purpose (outside trial t162b, a lab notebook): the example prints its weights
unscaled, then "Exercise 1" divides the scores by √d_k in code and prints the result under "Scaled Softmax:".
Every entry is the example's weights with the scale added, which the checker reports as one slip for the whole
matrix when nothing says so; here the printout's own name says it, so it is the other reading on purpose and is
left unjudged (claims/identity._says_its_scale).  The same matrix printed under a bare name is still one finding.
My own page; the numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

PAGE = """# Attention without a scale, then with one

```python
X = [[1, 0, 1], [0, 1, 1], [1, 1, 0]]
W_Q = [[1, 0], [0, 1], [1, 1]]
W_K = [[0, 1], [1, 0], [1, 1]]
W_V = [[1, 0], [0, 2], [1, 1]]
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
weights = softmax(Q @ K.T, dim=-1)
print(weights)
print(weights @ V)
```

```
tensor([[0.2447, 0.6652, 0.0900],
        [0.6652, 0.2447, 0.0900],
        [0.4223, 0.4223, 0.1554]])
tensor([[1.2447, 2.4205],
        [1.6652, 1.5795],
        [1.4223, 2.0000]])
```

Next, the same with the scale added.

```python
weights = softmax(Q @ K.T / math.sqrt(2), dim=-1)
print("Scaled Softmax:")
print(weights)
```

```
Scaled Softmax:
tensor([[0.2840, 0.5760, 0.1400],
        [0.5760, 0.2840, 0.1400],
        [0.4011, 0.4011, 0.1978]])
```
"""


def _softmax(s):
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def test_the_printed_numbers_are_numpy_s():
    X = np.array([[1., 0, 1], [0, 1, 1], [1, 1, 0]])
    Q = X @ np.array([[1., 0], [0, 1], [1, 1]])
    K = X @ np.array([[0., 1], [1, 0], [1, 1]])
    assert np.round(_softmax(Q @ K.T), 4)[2].tolist() == [0.4223, 0.4223, 0.1554]
    assert np.round(_softmax(Q @ K.T / np.sqrt(2)), 4)[0].tolist() == [0.284, 0.576, 0.14]


def _line_of(page, text):
    return next(k for k, line in enumerate(page.split("\n"), start=1) if text in line)


def test_a_printout_named_scaled_is_not_a_slip():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
    assert [n.line for n in r.not_checked] == [_line_of(PAGE, "[[0.2840")], [(n.line, n.reason) for n in r.not_checked]


def test_the_same_matrix_under_a_bare_name_is_one_finding():
    page = PAGE.replace("Scaled Softmax:", "Softmax:").replace("Next, the same with the scale added.", "Once more.") \
        .replace("weights = softmax(Q @ K.T / math.sqrt(2), dim=-1)", "weights = softmax(Q @ K.T, dim=-1)")
    r = check_document(page, fmt="md")
    assert [(f.line, f.kind) for f in r.errors] == [(_line_of(page, "[[0.2840"), "missing_scale")], \
        [f.describe() for f in r.findings]
