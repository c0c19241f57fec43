"""A cell that prints the weights, then sizes and the scale on lines of their own (trial t172d, a Spanish notebook):

    attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)
    print(attn_weights_2)              ->  tensor([0.1500, 0.2264, ...])
    print(keys.shape, d_k)             ->  torch.Size([6, 2]) 2
    print(d_k**0.5)                    ->  1.4142135623730951

The print labels were matched to the printed arrays from the end, so the weights took the name `d_k**0.5`, were
never tied to the scores printed in the cell before, and a slip in them went unreported.  A bare number on the last
lines of an output is no array: the print calls that made those lines name none.  My own scores; the weights are
NumPy's softmax of the scores over √2, at four decimals."""

import json

import numpy as np

from mha.check import check_document

SCORES = np.array([0.8123, 1.4410, 1.2987, 0.6642, 0.2975, 1.1034])


def _weights():
    s = SCORES / np.sqrt(2)
    e = np.exp(s - s.max())
    return e / e.sum()


def _t(v):
    return "tensor([" + ", ".join(f"{x:.4f}" for x in v) + "])"


def _notebook(slip=None):
    w = _t(_weights())
    if slip:
        w = w.replace(*slip)

    def code(k, src, out):
        return {"cell_type": "code", "id": f"c{k}", "metadata": {}, "execution_count": k, "source": src,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    cells = [{"cell_type": "markdown", "id": "m0", "metadata": {}, "source": "# Weights of the second query"},
             code(1, "attn_scores_2 = query_2 @ keys.T\nprint(attn_scores_2)", _t(SCORES) + "\n"),
             code(2, "d_k = keys.shape[-1]\nattn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)\n"
                     "print(attn_weights_2)\nprint(keys.shape, d_k)\nprint(d_k**0.5)",
                  w + "\ntorch.Size([6, 2]) 2\n1.4142135623730951\n")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_weights_keep_their_name_and_a_slip_in_them_is_found():
    r = check_document(_notebook(), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.findings]
    right = f"{_weights()[2]:.4f}"
    wrong = f"{float(right) + 0.01:.4f}"
    r = check_document(_notebook(slip=(right, wrong)), fmt="ipynb")
    assert [f.printed for f in r.errors] == [wrong], [f.describe() for f in r.findings]
