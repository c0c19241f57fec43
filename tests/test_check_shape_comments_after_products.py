"""Shape comments after projection lines (t156d, a Japanese hands-on page): `Q = X @ W_Q   # [3, 2]`, then the
same for K and V.  The three comments were stacked into a 3×2 matrix named Q; where X's rows made some entries
agree, the rest were reported wrong ("rows swapped").  The product of a matrix of several rows is itself rows, so
one flat list of whole numbers after it is its shape, not its value (readers/codecomments._product_of_matrix)."""

import numpy as np

from mha.check import check_document

DOC = """# Three tokens, identity weights (two rows alike)

```python
import numpy as np
X = np.array([[3.0, 2.0],
              [3.0, 2.0],
              [2.0, 1.0]])
W_Q = np.eye(2)
W_K = np.eye(2)
W_V = np.eye(2)

Q = X @ W_Q   # [3, 2]
K = X @ W_K   # [3, 2]
V = X @ W_V   # [3, 2]

scores = Q @ K.T / np.sqrt(2)
weights = softmax(scores)
print(weights)
```

```
[[0.4928 0.4928 0.0144]
 [0.4928 0.4928 0.0144]
 [0.4717 0.4717 0.0565]]
```

```python
out = weights @ V
print(out)
```

```
[[2.9856 1.9856]
 [2.9856 1.9856]
 [2.9435 1.9435]]
```
"""


def test_the_printed_numbers_are_what_numpy_gives():
    X = np.array([[3.0, 2.0], [3.0, 2.0], [2.0, 1.0]])
    S = X @ X.T / np.sqrt(2)
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    assert np.round(A[2], 4).tolist() == [0.4717, 0.4717, 0.0565]
    assert np.round(A @ X, 4)[2].tolist() == [2.9435, 1.9435]


def test_shape_comments_are_not_read_as_values():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 15, [f.describe() for f in r.findings]
    assert not any(f.line in (12, 13, 14) for f in r.findings)


def test_only_a_flat_list_after_a_product_of_rows_is_a_shape():
    from mha.check.readers.codecomments import _product_of_matrix
    assert not _product_of_matrix("s = q @ k", "  [1, 2]", {"q": 1, "k": 1})
    assert _product_of_matrix("Q = X @ W_Q", "  [3, 2]", {"X": 3})
    assert not _product_of_matrix("S = Q @ K.T", "  [[1, 0], [0, 1]]", {"Q": 2})
