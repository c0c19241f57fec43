"""Two things in notebooks that are no claims (an outside trial's notebooks on the final checker of the fourth
session of 2026-12-07, t257b): the printout of `torch.empty(n)`, memory left as it was
(`tensor([6.3352e+26, 2.1328e-42, 0.0000e+00, ...])`), which was judged as a row of weights that should be 1, 0, 0;
and a Markdown line of shape notes, `[100*100] * [100*64] = [100 * 64] ... = [100*512]`, whose bracketed products
were taken for numbers (6400 against "100*512").  My own notebook and numbers."""

import json

import numpy as np
from check_helpers import error_findings

X = np.array([[0.4, 0.1, 0.8], [0.5, 0.9, 0.6], [0.2, 0.6, 0.3]])


def _row(v):
    return "tensor([" + ", ".join(f"{x:.4f}" for x in v) + "])"


def _notebook(empty_out, notes):
    S = X @ X.T
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    cells = [
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "source": "inputs = torch.tensor([[0.4, 0.1, 0.8], [0.5, 0.9, 0.6], [0.2, 0.6, 0.3]])\nprint(inputs)",
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": "tensor([" + ",\n        ".join(_row(r)[7:-1] for r in X) + "])\n"}]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "source": "torch.empty(inputs.shape[0])",
         "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/plain": empty_out}}]},
        {"cell_type": "code", "execution_count": 3, "metadata": {},
         "source": "attn_weights = torch.softmax(inputs @ inputs.T, dim=-1)\nprint(attn_weights)",
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": "tensor([" + ",\n        ".join(_row(r)[7:-1] for r in A) + "])\n"}]},
        {"cell_type": "markdown", "metadata": {}, "source": notes},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


_NOTES = """Shapes through one layer:

scores: [10*10] * [10*8] = [10 * 8] for one head, 4 heads side by side [10*8] = [10*32]
"""


def test_uninitialised_memory_and_shape_notes_are_no_claims():
    empty = "tensor([7.1042e+28, 3.0801e-41, 0.0000e+00])"
    assert error_findings(_notebook(empty, _NOTES), fmt="ipynb") == []


def test_the_weights_beside_them_are_still_judged():
    S = X @ X.T
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    nb = _notebook("tensor([7.1042e+28, 3.0801e-41, 0.0000e+00])", _NOTES)
    slipped = f"{A[1, 1] + 0.01:.4f}"
    nb = nb.replace(f"{A[1, 1]:.4f}", slipped, 1)
    found = error_findings(nb, fmt="ipynb")
    assert [(f.cell, f.printed) for f in found] == [(3, slipped)]
