"""A printout whose code reads a variable that the same code block gave a new value first.

On a public post (outside trial t129c) the first code block printed `attn_scores = x @ x.T`; far below, a block
set `attn_scores = qs @ ks.T` from a trained layer and printed the softmax of that.  The second printout was called
"stale" (it disagreed with its code applied to the first printout of attn_scores), and what was computed from it
was set aside as computed from a stale printout.  A variable bound again between its printout and the code that
reads it is not that printout (claims/stale._rebound_between); the weights are then simply another layer's.
"""

from mha.check import check_document

PAGE = '''
# Scores, then the weights of a trained layer

```python
x = torch.tensor([[1.0, 0.0, 1.0],
                  [0.0, 1.0, 1.0],
                  [1.0, 1.0, 0.0]])
attn_scores = x @ x.T
attn_scores
```

```
tensor([[2., 1., 1.],
        [1., 2., 1.],
        [1., 1., 2.]])
```

```python
attn_weights = torch.softmax(attn_scores, dim=-1)
attn_weights
```

```
tensor([[0.5761, 0.2119, 0.2119],
        [0.2119, 0.5761, 0.2119],
        [0.2119, 0.2119, 0.5761]])
```

Now with the projections of a layer we trained:

```python
qs = layer.W_q(x)
ks = layer.W_k(x)
attn_scores = qs @ ks.T
attn_weights = torch.softmax(attn_scores, dim=-1)
attn_weights
```

```
tensor([[0.3712, 0.3110, 0.3178],
        [0.3405, 0.3350, 0.3245],
        [0.3301, 0.3397, 0.3302]])
```
'''


def test_a_rebound_variable_is_no_stale_printout():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    weights = [n for n in r.not_checked if n.line == 40]
    assert weights and "stale" not in weights[0].reason, r.not_checked


def test_without_the_rebinding_it_is_stale():
    """The same block without `attn_scores = qs @ ks.T`: it reads the printed scores, and disagrees with them."""
    text = PAGE.replace("attn_scores = qs @ ks.T\n", "")
    r = check_document(text, fmt="md")
    assert any("stale" in n.reason for n in r.not_checked), r.not_checked


SCRIPT = '''
import torch

x = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
w_key = torch.tensor([[1., 2.], [0., 1.]])
w_query = torch.tensor([[2., 0.], [1., 1.]])
w_value = torch.tensor([[0., 1.], [1., 0.]])

keys = x @ w_key
# print(keys)
# tensor([[1., 2.],
#         [0., 1.],
#         [1., 3.]])
querys = x @ w_query
values = x @ w_value
# print(querys)
# tensor([[2., 0.],
#         [1., 1.],
#         [3., 1.]])

attn_scores = querys @ keys.T
# print(attn_scores)
# tensor([[ 2.,  0.,  2.],
#         [ 3.,  1.,  4.],
#         [ 5.,  1.,  6.]])

k = w_key.shape[1]
attn_scores = querys @ keys.T / np.sqrt(k)
# print(attn_scores)
# tensor([[1.4142, 0.0000, 1.4142],
#         [2.1213, 0.7071, 2.8284],
#         [3.5355, 0.7071, 4.2426]])
'''


def test_a_print_left_as_a_comment_names_its_printout():
    """`# print(querys)` over `# tensor(...)` (a public script, outside trial t129c): the printout was named after
    the nearest assignment above it (`values = ...`) and so matched nothing; it is the print's, Q, and judged."""
    r = check_document(SCRIPT, fmt="py")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(SCRIPT.replace("#         [3., 1.]])", "#         [3., 2.]])"), fmt="py")
    assert [(f.line, f.printed) for f in r.errors] == [(19, "2.")], [f.describe() for f in r.findings]
