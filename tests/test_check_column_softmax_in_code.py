"""`torch.softmax(scores, dim=0)` printed on purpose, before the row-wise weights (outside trial t236c).

With symmetric scores (X Xᵀ) a softmax down the columns is the transpose of the row-wise weights, and the
printout was reported as "transposed".  Its own code says which axis it took: the layout is the code's choice,
not checked (claims/array.py `_softmax_down_columns`); the row-wise weights printed next are judged as usual.
My own numbers."""

import json

import numpy as np

from check_helpers import code_notebook, error_findings
from mha.check import check_document

X = np.array([[0.6, 0.1, 0.3], [0.2, 0.9, 0.4], [0.5, 0.3, 0.8], [0.1, 0.7, 0.2]])


def _softmax(S, axis):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def _fmt(M):
    return np.array2string(M, precision=4, floatmode="fixed")


def _notebook(rows=None):
    S = X @ X.T
    A = _softmax(S, 1) if rows is None else rows
    return code_notebook([
        ("import torch\ninputs = torch.tensor(%s)" % json.dumps(X.tolist()), None),
        ("scores = inputs @ inputs.T\nprint(scores)", _fmt(S)),
        ("down_columns = torch.softmax(scores, dim=0)\nprint(down_columns)", _fmt(_softmax(S, 0))),
        ("weights = torch.softmax(scores, dim=-1)\nprint(weights)", _fmt(A)),
        ("context = weights @ inputs\nprint(context)", _fmt(_softmax(S, 1) @ X)),
    ])


def test_a_column_softmax_the_code_asks_for_is_no_finding():
    r = check_document(_notebook(), fmt="ipynb")
    assert r.ok and r.n_numbers >= 36, [f.message() for f in r.findings]    # scores, weights, context


def test_the_row_wise_weights_after_it_are_still_judged():
    A = _softmax(X @ X.T, 1)
    slipped = A.copy()
    slipped[2, 1] += 0.01
    found = error_findings(_notebook(rows=slipped), fmt="ipynb")
    assert [f.cell for f in found] == [4], [f.message() for f in found]
