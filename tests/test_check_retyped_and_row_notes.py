"""Two habits of a widely copied self-attention walkthrough (t220b, a Chinese course note):

- the scores printed as a tensor whose rows carry notes (`[ 4., 16., 12.], # scores of query 2`): the notes made
  the printout unreadable, so a slip in it was missed (readers/markdown.py `_ROW_NOTE`);
- the softmax computed, printed, and then typed in again rounded (`w = softmax(s)` ... `w = [[0.4, 0.2, 0.4], ...]`):
  the typed literal (rounded to sum to one: 0.1554 as 0.1) was judged as the softmax, a false finding.  A literal typed
  for a name the code computed just before is the author's setting, not a result (readers/python.py, claims/array.py).

My own X; Q = K = V = X, unscaled."""

from check_helpers import error_places, line_of

PAGE = """# Self-attention, step by step

```python
x = torch.tensor([[1., 0.], [0., 2.], [1., 1.]])
attn_scores = x @ x.T
print(attn_scores)
```

```python
tensor([[1., 0., 1.], # scores of query 1
        [0., 4., {s23}], # scores of query 2
        [1., 2., 2.]])# scores of query 3
```

```python
attn_scores_softmax = softmax(attn_scores, dim=-1)
print(attn_scores_softmax)
attn_scores_softmax = [
  [0.4, 0.1, 0.5],
  [0.0, 0.9, 0.1],
  [0.2, 0.4, 0.4]
]
```

```python
tensor([[0.4223, 0.1554, 0.4223],
        [0.0159, 0.8668, 0.1173],
        [0.1554, 0.4223, 0.4223]])
```
"""


def test_the_walkthrough_checks_clean():
    from mha.check import check_document
    r = check_document(PAGE.format(s23="2."), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == []
    assert any(n.line == line_of(PAGE, "[0.4, 0.1, 0.5]") for n in r.not_checked)


def test_a_slip_in_a_noted_row_is_found():
    text = PAGE.format(s23="3.")
    assert error_places(text) == [(line_of(text, "[0., 4., 3.]"), "3.")]
