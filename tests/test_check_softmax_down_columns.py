"""A notebook whose code takes the softmax down the columns, `F.softmax(scores, dim=0)`, over the cross-attention
scores of two small sequences (fieldK-07, a torch notebook: two 2×3 tensors, `torch.matmul(x1, x2.transpose(0,1))`,
then `dim=0`).  No configuration explains it (the keys are a second sequence, and each key's column sums to 1), so
nothing was checked; its planted slips in a score and in two weights were missed.  The code names both steps, so
each printout is judged against the printout its formula names (claims/formula.py): the product entry by entry,
the softmax column by column.  A 2×2 product with one entry off is identified by its other three (the contract's
two thirds and at least two).

My own sequences and numbers, computed below with plain NumPy (not mha)."""

import numpy as np

from check_helpers import code_notebook

XA = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
XB = np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [1.0, 0.0, 1.0]])


def _tensor(m, whole=False):
    cells = [[f"{v:.0f}." if whole else f"{v:.4f}" for v in r] for r in m]
    width = max(len(c) for r in cells for c in r)
    rows = ["[" + ", ".join(c.rjust(width) for c in r) + "]" for r in cells]
    return "tensor([" + ",\n        ".join(rows) + "])"


def _printouts():
    s = XA @ XB.T
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = e / e.sum(axis=0, keepdims=True)
    return s, w, w @ XB


def _notebook(score=None, weight=None):
    s, w, o = _printouts()
    shown_s, shown_w = _tensor(s, whole=True), _tensor(w)
    if score:
        shown_s = shown_s.replace(*score, 1)
    if weight:
        shown_w = shown_w.replace(*weight, 1)
    return code_notebook([
        ("import torch\nimport torch.nn.functional as F", None),
        ("xa = torch.tensor([[1., 0., 2.], [0., 1., -1.]])\nxb = torch.tensor([[1., 1., 0.], [0., 2., 1.], "
         "[1., 0., 1.]])\nxa", _tensor(XA, whole=True)),
        ("xb", _tensor(XB, whole=True)),
        ("scores = torch.matmul(xa, xb.transpose(0, 1))\nscores", shown_s),
        ("weights = F.softmax(scores, dim=0)\nweights", shown_w),
        ("out = torch.matmul(weights, xb)\nout", _tensor(o)),
    ])


def _errors(text):
    from mha.check import check_document
    return [f for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]


def test_the_numbers_are_what_the_page_says():
    s, w, _ = _printouts()
    assert s.tolist() == [[1.0, 2.0, 3.0], [1.0, 1.0, -1.0]]
    assert np.allclose(w.sum(axis=0), 1) and not np.allclose(w.sum(axis=1), 1)
    assert _tensor(w).startswith("tensor([[0.5000, 0.7311, 0.9820],")


def test_the_clean_notebook_checks_clean():
    assert _errors(_notebook()) == []


def test_a_weight_slipped_in_its_column_is_found():
    errs = _errors(_notebook(weight=("0.7311", "0.7131")))
    assert [(f.cell, f.printed) for f in errs] == [(5, "0.7131")]
    assert "dim=0" in errs[0].cause and errs[0].rounded == "0.7311"


def test_a_slipped_score_is_found_once():
    """`3.` printed as `4.`: the product's entry is the finding, and the column of weights it feeds (now off in
    both entries) names nothing: one slip, one finding."""
    errs = _errors(_notebook(score=("3.]", "4.]")))
    assert [(f.cell, f.printed) for f in errs] == [(4, "4.")]
    assert errs[0].rounded == "3."
