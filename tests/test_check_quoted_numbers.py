"""A softmax printed through an f-string, one formatted string per weight: `# Probs: ['0.5465', '0.3315', ...]`
(t151b, a course page on the softmax).  The quotes hid the numbers: a slip in them went unseen.  A bracketed list of
quoted numbers is read as the numbers it prints (readers/__init__._QUOTED_LIST).
"""

from mha.check import check_document

DOC = """# Softmax of three logits

```python
logits = torch.tensor([[1.0, 0.5, -0.5]])
probs = F.softmax(logits, dim=-1)
print(f"Probs: {{[f'{{v:.4f}}' for v in probs[0].tolist()]}}")
# Probs: ['{p}', '0.3315', '0.1220']
```
"""


def test_the_quoted_weights_are_read_and_hold():
    r = check_document(DOC.format(p="0.5465"), fmt="md")
    assert not r.findings and r.n_numbers >= 3, [f.describe() for f in r.findings]


def test_a_slip_inside_the_quotes_is_found():
    r = check_document(DOC.format(p="0.5565"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(7, "0.5565")], [f.describe() for f in r.findings]
