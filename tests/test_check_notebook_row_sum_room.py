"""A notebook's printout of its softmax weights with one entry slipped by 0.08 (0.4020 printed 0.4820): the row sums
to 1.08.  Only rows within 0.05 of 1 were judged, so this slip passed while a smaller one was found (t209a, a d2l
notebook).  A row up to 0.2 off is judged when most rows of the printout sum to 1; a printout after dropout, whose
rows mostly do not, is still left alone."""

import numpy as np

from check_helpers import code_notebook, error_findings

S = np.array([[0.3, 1.2, -0.4, 0.8], [1.0, 0.1, 0.5, -0.2], [0.0, 0.9, 1.4, 0.6]])
W = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def printout(M) -> str:
    return "tensor([" + ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in M) + "])"


def notebook(M, code="attn_weights = torch.softmax(scores, dim=-1)\nattn_weights") -> str:
    return code_notebook([("import torch\nscores = torch.randn(3, 4)", None), (code, printout(M))])


def test_a_row_off_by_a_slipped_digit_is_found():
    assert error_findings(notebook(W), fmt="ipynb") == []
    slipped = W.copy()
    slipped[1, 2] += 0.08
    found = error_findings(notebook(slipped), fmt="ipynb")
    assert [(f.cell, f.line) for f in found] == [(2, 2)] and "1.08" in found[0].printed


def test_weights_after_dropout_are_not_judged_by_their_sums():
    rng = np.random.default_rng(3)
    kept = rng.random(W.shape) > 0.3
    dropped = np.where(kept, W / 0.7, 0.0)
    assert error_findings(notebook(dropped, code="attn_weights = dropout(attn_weights)\nattn_weights"),
                          fmt="ipynb") == []
