"""`contextual_embeddings = attention_weights @ embeddings` (an outside trial's Portuguese notebook, t258c, and its
"Embedding contextualizado"): the word "embeddings" in the name made it the input X, so the output was never
judged.  Embeddings called contextual (contextualised, contextualizados) are what attention gives.  My own
numbers: three tokens of two dimensions, Q = K = V = the embeddings, no scale."""

from check_helpers import error_findings

_PAGE = """# Attention with the embeddings themselves

```python
embeddings = np.array([[1.0, 0.5], [0.2, 1.0], [0.8, 0.1]])
scores = embeddings @ embeddings.T
print(scores)
```

```
[[1.25 0.7  0.85]
 [0.7  1.04 0.26]
 [0.85 0.26 0.65]]
```

```python
weights = softmax(scores, axis=1)
print(weights)
```

```
[[0.445  0.2567 0.2983]
 [0.328  0.4608 0.2112]
 [0.4214 0.2336 0.345 ]]
```

```python
contextual_embeddings = weights @ embeddings
print(contextual_embeddings)
```

```
[[0.735  0.5091]
 [{o21} 0.6459]
 [0.7441 0.4788]]
```
"""


def test_contextual_embeddings_that_hold():
    assert error_findings(_PAGE.format(o21="0.5891")) == []


def test_a_slip_in_the_contextual_embeddings_is_found():
    found = error_findings(_PAGE.format(o21="0.5391"))
    assert [(f.line, f.printed) for f in found] == [(33, "0.5391")]
