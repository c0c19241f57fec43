"""Weights printed after a padding mask given as valid lengths (outside trial t161a, Chinese notes in the style of
d2l): raw scores, `valid_lens = torch.tensor([3, 2])`, then `masked_softmax(scores, valid_lens)` printing each row's
first keys normalised and zeros after them.  Every weight was judged against the softmax of the whole row: 8 false
findings on a right page.  A row that ends in printed zeros is now also read as padded, and that reading is kept
where it leaves fewer errors (claims/softmax._row_findings); a zero that slipped to 0.1 just before the padding is
then one finding, on it.  My own page; the numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

PAGE = """# Padding in a batch of two

```python
scores = torch.tensor([[0.5, 1.5, 2.0, -1.0],
                       [2.0, 0.0, 1.0, 3.0]])
valid_lens = torch.tensor([3, 2])
print(scores)
```

```
tensor([[ 0.5000,  1.5000,  2.0000, -1.0000],
        [ 2.0000,  0.0000,  1.0000,  3.0000]])
```

```python
weights = masked_softmax(scores, valid_lens)
print(weights)
```

```
tensor([[0.1220, 0.3315, 0.5465, 0.0000],
        [0.8808, 0.1192, 0.0000, 0.0000]])
```
"""


def _truth():
    s = np.array([[0.5, 1.5, 2.0, -1.0], [2.0, 0.0, 1.0, 3.0]])
    out = np.zeros_like(s)
    for r, n in enumerate([3, 2]):
        e = np.exp(s[r, :n] - s[r, :n].max())
        out[r, :n] = e / e.sum()
    return out


def test_the_printed_weights_are_numpy_s():
    assert np.round(_truth(), 4).tolist() == [[0.122, 0.3315, 0.5465, 0.0], [0.8808, 0.1192, 0.0, 0.0]]


def test_padded_rows_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 8, [f.describe() for f in r.findings]


def test_a_slipped_weight_in_a_padded_row_is_one_finding():
    r = check_document(PAGE.replace("0.3315", "0.3351"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(21, "0.3351")], [f.describe() for f in r.findings]


def test_a_zero_slipped_before_the_padding_is_the_finding():
    r = check_document(PAGE.replace("[0.8808, 0.1192, 0.0000, 0.0000]", "[0.8808, 0.1192, 0.1000, 0.0000]"),
                       fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(22, "0.1000")], [f.describe() for f in r.findings]


def test_zeros_where_no_padding_explains_the_row_are_still_wrong():
    # a full row of the unmasked softmax with its last entry written 0: no prefix explains the others
    e = np.exp(np.array([2.0, 0.0, 1.0, 3.0]) - 3.0)
    assert np.round(e / e.sum(), 4)[:3].tolist() == [0.2369, 0.0321, 0.0871]
    page = PAGE.replace("[0.8808, 0.1192, 0.0000, 0.0000]", "[0.2369, 0.0321, 0.0871, 0.0000]")
    r = check_document(page, fmt="md")
    assert any(f.line == 22 and f.printed == "0.0000" for f in r.errors), [f.describe() for f in r.findings]
