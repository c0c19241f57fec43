"""A cell that ends in a tuple, `mask, attn_weights`, shows `(tensor([[False, True], ..]), tensor([[1.0, 0.0],
..]))`: the boolean mask is no array of numbers, and the weights are still named `attn_weights` (the tuple's second
part), so their rows are claims that they sum to 1.  The notebook is this project's own."""

import json

import numpy as np

from check_helpers import error_findings

W = np.array([[1.0, 0.0, 0.0, 0.0], [0.6225, 0.3775, 0.0, 0.0], [0.2149, 0.4412, 0.3439, 0.0],
              [0.1703, 0.2856, 0.3107, 0.2334]])


def notebook(weights: np.ndarray) -> str:
    mask = "tensor([[False,  True,  True,  True],\n        [False, False,  True,  True],\n" \
           "        [False, False, False,  True],\n        [False, False, False, False]])"
    rows = ",\n          ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in weights)
    shown = f"({mask},\n tensor([[{rows}]]))"
    src = "scores = torch.randn(1, 4, 4)\nmask = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)\n" \
          "attn_weights = torch.softmax(scores.masked_fill(mask, -torch.inf), dim=-1)\n\nmask, attn_weights"
    cell = {"cell_type": "code", "execution_count": 3, "metadata": {}, "source": src,
            "outputs": [{"output_type": "execute_result", "execution_count": 3, "metadata": {},
                         "data": {"text/plain": shown}}]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text: str) -> list:
    return error_findings(text, "ipynb")


def test_weights_shown_second_in_a_tuple_are_checked_by_their_rows():
    assert _errors(notebook(W)) == []
    slipped = W.copy()
    slipped[2, 2] = 0.3539                       # the row now sums to 1.0100
    found = _errors(notebook(slipped))
    assert len(found) == 1 and found[0].claim.startswith("attn_weights: a row's sum") and "1.0100" in found[0].printed
