"""A later section's projection shape, `torch.Size([3, 2])` for `W_query = torch.rand(3, 2)`, where the first section
works attention with no projections (so the configuration assumes W_Q = I, 3×3).

Outside trial t145a (a false finding, the last look): "shape of W_Q: printed 3×2; exact 3×3".  A weight the
configuration assumes is no claim of the document's; its stated shape is not judged against the assumption
(claims/shape._weight_assumed), as its printed values already were not.
"""

import json

import numpy as np

from mha.check import check_document

X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])


def _code(source: str, text: str = "", result: str = "") -> dict:
    outputs = []
    if text:
        outputs.append({"output_type": "stream", "name": "stdout", "text": text})
    if result:
        outputs.append({"output_type": "execute_result", "execution_count": 1, "metadata": {},
                        "data": {"text/plain": result}})
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": source, "outputs": outputs}


def _md(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def notebook(weight_slip: float = 0.0) -> str:
    S = X @ X.T
    A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    A[1, 1] += weight_slip
    t = lambda M: "tensor(" + np.array2string(M, precision=4, floatmode="fixed", separator=", ").replace(
        "\n", "\n       ") + ")"
    cells = [
        _md("# Attention without trainable weights"),
        _code("import torch\ninputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])"),
        _code("attn_scores = inputs @ inputs.T\nprint(attn_scores)", t(S) + "\n"),
        _code("attn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)", t(A) + "\n"),
        _md("# With trainable weights"),
        _code("x_2 = inputs[1]\nx_2", result="tensor([0.5500, 0.8700, 0.6600])"),
        _code("torch.manual_seed(123)\nW_query = torch.rand(3, 2)\nquery_2 = x_2 @ W_query\n"
              "print(x_2.shape, W_query.shape, query_2.shape)",
              "torch.Size([3]) torch.Size([3, 2]) torch.Size([2])\n"),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_the_assumed_weight_shape_is_not_judged():
    r = check_document(notebook(), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_slip_in_the_first_section_is_still_found():
    r = check_document(notebook(weight_slip=0.01), fmt="ipynb")
    assert [f.cell for f in r.errors] == [4], [f.describe() for f in r.findings]
