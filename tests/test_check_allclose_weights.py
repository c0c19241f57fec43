"""A second example that only asserts its weights (t-set G, a Chinese lab page): `expected = torch.tensor([[[1.0,
0.0], [a, b]]])`, a and b to eight decimals, then `assert torch.allclose(weights, expected, atol=1e-5)`.  Clean,
the second example's weights are checked; with a slip in one of its long decimals the example was no longer
recognised at all (two of its four entries are a causal row's 1.0 and 0.0, so fewer than four entries matched) and
the slip was missed.  A match in an entry printed to eight decimals is evidence enough (infer/search.py
`_long_matches`)."""

import numpy as np

from check_helpers import error_places, line_of

PAGE = """# Causal attention in torch

```python
q = torch.tensor([[[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]]])
k = torch.tensor([[[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]]])
v = torch.tensor([[[4.0, 0.0], [0.0, 8.0]]])
weights = attention_weights(q, k, mask=causal_mask(2))
output = weights @ v
print(weights)
print(output)
```

```
tensor([[[1.0000, 0.0000],
         [0.2396, 0.7604]]])
tensor([[[4.0000, 0.0000],
         [0.9585, 6.0829]]])
```

## A second test: the weights are asserted

```python
q = torch.tensor([[[0.5, 1.5], [1.0, 0.0]]])
k = torch.tensor([[[2.0, 0.0], [1.0, 1.0]]])
weights = attention_weights(q, k, mask=causal_mask(2))
expected = torch.tensor([[[1.0, 0.0], [{a}, {b}]]])
assert torch.allclose(weights, expected, atol=1e-5)
```
"""


def _weights():
    s = np.array([[0.5, 1.5], [1.0, 0.0]]) @ np.array([[2.0, 0.0], [1.0, 1.0]]).T / np.sqrt(2)
    e = np.exp(s[1] - s[1].max())
    return e / e.sum()


def _page(a=None, b=None):
    w = _weights()
    return PAGE.format(a=a or f"{w[0]:.8f}", b=b or f"{w[1]:.8f}")


def test_the_asserted_weights_check_clean():
    assert error_places(_page()) == []


def test_a_slip_in_one_long_decimal_is_found():
    w = _weights()
    good = f"{w[0]:.8f}"
    slipped = good[:4] + good[5] + good[4] + good[6:]          # two digits swapped
    assert slipped != good
    text = _page(a=slipped)
    assert error_places(text) == [(line_of(text, "expected = "), slipped)]


def test_a_masked_entry_given_a_digit_is_found():
    text = _page().replace("[[[1.0, 0.0], [0.", "[[[1.0, 0.1], [0.")
    assert error_places(text) == [(line_of(text, "expected = "), "0.1")]
