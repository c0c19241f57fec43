"""Printouts shown in code as `# Output: tensor([...])` under the code that computes them.

On a learner's notes (outside trial t131d) each step's code block ended with such a comment.  The word "Output" was
taken for the name of the attention output, so the scores and the weights were compared with Y and not judged; with
nothing to bear out the identity weights it had guessed, the checker then set the real output aside too, and a
slip planted in it went unseen.  A comment that names nothing but "what this prints" takes the name of the code
above it: the print's, or the variable that code gives a value (`attn_scores_2[i] = ...` in a loop).
"""

import pytest

from mha.check import check_document

PAGE = """# One query, step by step

```python
inputs = torch.tensor([[0.2, 0.7, 0.1],
                       [0.5, 0.3, 0.9],
                       [0.8, 0.6, 0.4],
                       [0.1, 0.2, 0.6]])
```

The third token asks; its scores are dot products with every token:

```python
query = inputs[2]
attn_scores_3 = torch.empty(inputs.shape[0])
for i, x_i in enumerate(inputs):
    attn_scores_3[i] = torch.dot(x_i, query)
# Output: tensor([0.6200, 0.9400, 1.1600, 0.4400])
```

```python
attn_weights_3 = torch.softmax(attn_scores_3, dim=0)
# Output: tensor([0.2029, 0.2794, 0.3482, 0.1695])
```

```python
context_vec_3 = torch.zeros(query.shape)
for i, x_i in enumerate(inputs):
    context_vec_3 += attn_weights_3[i] * x_i
# Output: tensor([0.4758, 0.4687, 0.5127])
```
"""


def test_each_output_comment_is_its_step():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not r.not_checked, r.not_checked
    assert r.n_numbers >= 11, r.n_numbers


@pytest.mark.parametrize("old, new", [("0.9400", "0.9500"), ("0.2794", "0.2749"), ("0.4687", "0.4697")])
def test_a_slip_in_any_step_is_found(old, new):
    text = PAGE.replace(old, new)
    line = next(k for k, x in enumerate(text.split("\n"), 1) if new in x)
    r = check_document(text, fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_a_named_comment_keeps_its_name():
    from mha.check.readers import read_document
    doc = read_document(PAGE.replace("# Output: tensor([0.2029", "# weights: tensor([0.2029"), "md")
    assert any(a.label == "weights" for a in doc.arrays), [a.label for a in doc.arrays]
