"""Scores divided by their sum, printed as weights before the softmax is introduced (outside trial t166a, study
notes on a book's chapter 3): `attn_scores_2: tensor([...])` over `attention_weights: tensor([...])`, the second the
first over its sum.  Two lines side by side were read as a softmax pair, so each of the six right weights was
called wrong (6 false findings).  Weights that are the scores over their row's sum are now judged as that
normalisation (claims/softmax._over_their_sum); one entry off it is one finding.  My own page; the numbers are
from plain NumPy."""

import numpy as np

from mha.check import check_document

PAGE = """# Attention for the second token, without weights

```python
inputs = torch.tensor([[0.4, 0.9], [0.6, 0.3], [0.8, 0.7]])
query = inputs[1]
attn_scores_2 = inputs @ query
weights_tmp = attn_scores_2 / attn_scores_2.sum()
print("attn_scores_2:", attn_scores_2)
print("weights_tmp:", weights_tmp)
```

```
attn_scores_2: tensor([0.5100, 0.4500, 0.6900])
weights_tmp: tensor([0.3091, 0.2727, 0.4182])
```

Then with the softmax:

```python
attn_weights_2 = torch.softmax(attn_scores_2, dim=0)
print("attn_weights_2:", attn_weights_2)
```

```
attn_weights_2: tensor([0.3186, 0.3000, 0.3814])
```
"""


def test_the_numbers_are_numpy_s():
    X = np.array([[0.4, 0.9], [0.6, 0.3], [0.8, 0.7]])
    s = X @ X[1]
    assert np.round(s / s.sum(), 4).tolist() == [0.3091, 0.2727, 0.4182]
    e = np.exp(s - s.max())
    assert np.round(e / e.sum(), 4).tolist() == [0.3186, 0.3, 0.3814]


def test_a_normalisation_is_not_judged_as_a_softmax():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_one_entry_off_the_normalisation_is_one_finding():
    r = check_document(PAGE.replace("0.3091, 0.2727", "0.3091, 0.2827"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.2827")], [f.describe() for f in r.findings]


def test_the_softmax_after_it_is_still_judged():
    r = check_document(PAGE.replace("0.3186, 0.3000", "0.3186, 0.3100"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(25, "0.3100")], [f.describe() for f in r.findings]
