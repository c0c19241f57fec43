"""Weights normalised over the whole matrix (`e = np.exp(x - x.max()); e / e.sum()` without an axis, or scipy's
softmax with its default axis=None), printed right after the scores: every entry is e^s over the sum of all the
exponentials, so the rows sum to about 1/n.  One finding for the axis, not one per entry (two outside notebooks
printed such weights; one was refused, the other passed)."""

import json

import numpy as np

from mha.check import check_document

S = np.array([[0.5239, 0.3564, 0.5404], [0.5544, 0.3378, 0.5548], [0.4723, 0.5467, 0.5178]])


def _grid(M) -> str:
    return "[" + ",\n ".join("[" + ", ".join(f"{x:.6f}" for x in r) + "]" for r in M) + "]"


def _notebook(whole: bool) -> str:
    e = np.exp(S - S.max())
    W = e / e.sum() if whole else e / e.sum(axis=1, keepdims=True)

    def cell(n, src, out):
        return {"cell_type": "code", "execution_count": n, "id": f"c{n}", "metadata": {}, "source": src,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    code = "e = np.exp(scores - scores.max())\nweights = e / e.sum()" if whole else \
        "e = np.exp(scores - scores.max(axis=1, keepdims=True))\nweights = e / e.sum(axis=1, keepdims=True)"
    cells = [cell(1, "scores = q @ k.T / np.sqrt(6)\nprint(scores)", _grid(S).replace(",", "") + "\n"),
             cell(2, code + "\nprint(weights)", _grid(W).replace(",", "") + "\n")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_row_wise_weights_hold():
    r = check_document(_notebook(whole=False), fmt="ipynb")
    assert not r.findings and r.n_claims >= 1, [f.describe() for f in r.findings]


def test_whole_matrix_softmax_is_one_finding():
    r = check_document(_notebook(whole=True), fmt="ipynb")
    assert [(f.cell, f.kind) for f in r.findings if f.severity == "error"] == [(2, "wrong_axis")], \
        [f.describe() for f in r.findings]
