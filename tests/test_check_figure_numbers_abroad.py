"""A figure's number in the sentence that introduces a printout, in a language other than English or Chinese
("... giống như trong hình 3.10:", Vietnamese for "... as in figure 3.10:"), or in lower case
("as in figure 3.10:").  Only "Figure", "Fig." and 图 were known, so 3.10 was read as a weight and found wrong
(a Vietnamese translation of a book chapter, t230d).  Figure and table words of more languages, in any case, now
blank their numbers (readers/__init__.py `_REFERENCE`).  My own matrices."""

import numpy as np
import pytest

X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])
S = X @ X.T


def _softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _t(m):
    return "tensor([" + ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in m) + "])"


def _page(caption, weights=None):
    w = _softmax(S) if weights is None else weights
    return "\n".join(["# Trọng số", "", "```python", "inputs = torch.tensor(",
                      "  [[0.43, 0.15, 0.89],", "   [0.55, 0.87, 0.66],", "   [0.57, 0.85, 0.64]])",
                      "attn_scores = inputs @ inputs.T", "print(attn_scores)", "```", "", "```", _t(S), "```", "",
                      "```python", "attn_weights = torch.softmax(attn_scores, dim=-1)", "print(attn_weights)", "```",
                      "", caption, "", "```", _t(w), "```", ""])


@pytest.mark.parametrize("caption", ["Kết quả là tensor trọng số attention giống như trong hình 3.10:",
                                     "It returns the attention weights that figure 3.10 shows:",
                                     "Los attention weights aparecen en la figura 3.10:"])
def test_the_figure_number_is_no_weight(caption):
    from mha.check import check_document
    from mha.check.readers import read_document
    doc = read_document(_page(caption), "md")
    assert not [c.text for c in doc.chains if "3.10" in c.text and len(c.parts) > 1], "the caption read as a value"
    from mha.check.command import NothingToCheck
    try:
        errs = check_document(_page(caption), fmt="md").errors
    except NothingToCheck:
        errs = []
    assert not [f for f in errs if f.printed == "3.10"], [f.describe() for f in errs]
