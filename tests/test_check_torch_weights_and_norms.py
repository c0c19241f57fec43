"""Two readings met in a notebook that unit-tests a Transformer's parts (outside trial t165c):

* `attn_output_weights`, the weights torch's nn.MultiheadAttention returns beside its output, was read as the output
  projection W_O (its name has "output" and "weights"), so its printed rows were never held to summing to 1;
* under a "LayerNorm" heading, a vector of ones (the norm's weight), a matrix and its row means fit "one query
  against its keys" with the scale 1/d_k exactly, so the means were confirmed as scores, and a slipped mean was
  reported as a wrong attention score.

`attn_output_weights` names the attention weights now (labels.parse_label), and a heading about a normalisation
layer is another layer than attention (infer/prepare.other_layer).  My own pages."""

import pytest

from mha.check import check_document
from mha.check import labels as lb
from mha.check.infer.prepare import other_layer
from mha.inputs import MHAInputError

WEIGHTS = """# nn.MultiheadAttention

```python
attn_output, attn_output_weights = mha(x, x, x, need_weights=True)
print(attn_output_weights)
```

```
tensor([[[0.4310, 0.2205, 0.3485],
         [0.1187, 0.6150, 0.2663],
         [0.3302, 0.3302, 0.3396]]])
```
"""

NORM = """# Unit tests of the parts

## LayerNorm

```python
print(layer_norm.weight.data)
```

```
tensor([1., 1., 1., 1.])
```

```python
print(embedding[0])
```

```
tensor([[ 0.2000, -0.4000,  1.0000,  0.6000],
        [-1.2000,  0.8000,  0.4000,  0.0000],
        [ 0.5000,  0.5000, -0.5000,  1.5000]])
```

```python
print(embedding.mean(dim=-1)[0])
```

```
tensor([ 0.3500,  0.0000,  0.5000])
```
"""


def test_the_names():
    assert lb.parse_label("attn_output_weights").nodes == ("A",)
    assert lb.parse_label("out_proj.weight").nodes == ("W_O",)
    assert other_layer("LayerNorm") and other_layer("层归一化") and not other_layer("Attention, then LayerNorm")


def test_the_rows_sum_to_one():
    assert [round(sum(r), 4) for r in ([0.4310, 0.2205, 0.3485], [0.1187, 0.6150, 0.2663],
                                       [0.3302, 0.3302, 0.3396])] == [1.0, 1.0, 1.0]


def test_returned_weights_are_held_to_their_row_sums():
    r = check_document(WEIGHTS, fmt="md")
    assert not r.errors and r.n_claims >= 1, [f.describe() for f in r.findings]
    r = check_document(WEIGHTS.replace("0.6150", "0.6250"), fmt="md")
    assert [f.line for f in r.errors] == [10], [f.describe() for f in r.findings]


@pytest.mark.parametrize("means", ["0.3500,  0.0000,  0.5000", "0.3600,  0.0000,  0.5000"])
def test_row_means_under_a_layer_norm_heading_are_not_attention_scores(means):
    try:
        r = check_document(NORM.replace("0.3500,  0.0000,  0.5000", means), fmt="md")
    except MHAInputError:
        return                                   # nothing of attention to check: refused
    assert not r.errors and r.n_claims == 0, (r.configuration, [f.describe() for f in r.findings])
