"""Torch printouts pasted as block quotes (t219b, a walkthrough of GPT-2's attention): each row of the tensor on a
quoted line of its own, with a blank quoted line between rows.  Markdown reads every row as a paragraph of its own,
so no matrix was read and a slip in the weights was missed.  Such a quote is read as a fenced printout under the
code above it (readers/markdown.py `_quoted_printouts`), and "weights after mask" names the weights, not the mask
(labels.py).  My own scores; the weights are NumPy's softmax of them under a causal mask."""

import numpy as np

from check_helpers import error_places, line_of

S = np.array([[0.5, 1.0, 0.0], [1.0, 0.0, 2.0], [1.5, 1.0, 2.0]])


def _weights():
    s = np.where(np.triu(np.ones((3, 3)), 1).astype(bool), -np.inf, S)
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _quoted(rows):
    """A torch printout quoted a row per line, blank quoted lines between."""
    body = [f"[{', '.join(f'{x:.4e}' for x in r)}]" for r in rows]
    lines = ["tensor([" + body[0] + ","] + [b + "," for b in body[1:-1]] + [body[-1] + "])"]
    return "\n>\n".join("> " + x for x in lines)


def _page(weights_text=None):
    scores = _quoted(S)
    return f"""# Masked weights in torch

```
scores = torch.tensor([[0.5, 1.0, 0.0], [1.0, 0.0, 2.0], [1.5, 1.0, 2.0]])
print("original scores:", scores)
```

> original scores:
>
{scores}

```
mask = torch.triu(torch.ones(3, 3), diagonal=1).bool()
weights = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
print("weights after mask:", weights)
```

> weights after mask:
>
{weights_text or _quoted(_weights())}

The first token sees only itself.
"""


def test_the_quoted_printouts_are_read_and_hold():
    from mha.check import check_document
    r = check_document(_page(), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 6


def test_a_slip_in_a_quoted_weight_is_found():
    good = f"{_weights()[2, 2]:.4e}"
    slipped = good[:3] + good[4] + good[3] + good[5:]
    assert slipped != good
    text = _page(_quoted(_weights()).replace(good, slipped))
    found = error_places(text)
    assert found == [(line_of(text, slipped), slipped)]
