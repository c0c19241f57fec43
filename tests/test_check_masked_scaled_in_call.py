"""Masked scores printed, then `torch.softmax(masked / 2, dim=-1)` printed, the scaled scores never shown (t150a,
built by the trial's helper after a book page's causal section).  Two rows of the 3×3 have two live keys or more;
all of their weights were called wrong against the unscaled softmax ("0.6457; exact 0.7685"), three false findings.

The scale read off the rows (claims/softmax._masked_root: softmax(row / √d) for one whole d, here 4) was tried only
when more than a third of the weights disagreed; three of nine did not pass that bar.  It is now tried whenever a
weight disagrees, and kept when it leaves fewer errors: the page holds.  A slip in row 3 leaves one row to read
the scale off, too few; the factor the printing code applies (`S_masked / 2`, claims/softmax.source_factor) then
gives it, and the slip is found on its own line.
"""

from mha.check import check_document

DOC = """# Causal weights

```python
S = Q @ K.T
print(S)
```
```
tensor([[ 0.7000, -0.2000,  1.1000],
        [ 1.3000,  0.1000, -0.6000],
        [-0.4000,  0.6000,  0.9000]])
```
```python
future = torch.triu(torch.ones(3, 3), diagonal=1).bool()
S_masked = S.masked_fill(future, float("-inf"))
print(S_masked)
```
```
tensor([[ 0.7000,    -inf,    -inf],
        [ 1.3000,  0.1000,    -inf],
        [-0.4000,  0.6000,  0.9000]])
```
```python
W = torch.softmax(S_masked / 2, dim=-1)
print(W)
```
```
tensor([[1.0000, 0.0000, 0.0000],
        [0.6457, 0.3543, 0.0000],
        [0.2191, {w}, 0.4197]])
```
"""


def test_the_weights_of_the_scaled_masked_scores_hold():
    r = check_document(DOC.format(w="0.3612"), fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_slip_in_them_is_found():
    r = check_document(DOC.format(w="0.3712"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(29, "0.3712")], [f.describe() for f in r.findings]
