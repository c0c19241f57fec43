"""A notebook that works attention with NumPy, then goes on to the rest of a model and prints the shapes of its
other tensors: `Logits shape: (4, 20)` over a vocabulary of 20, the activation after attention, the residual and
the norm `(4, 8)`, a training batch of token ids `torch.Size([2, 10])`.  None of them is the shape of an attention
quantity, whatever word its caption shares with one.  The notebook is this project's own."""

import json

import numpy as np

from check_helpers import error_findings


def _cell(src: str, out: str) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out + "\n"}]}


def notebook(weights_shape: str = "(4, 4)") -> str:
    rng = np.random.default_rng(3)
    x = np.round(rng.standard_normal((4, 8)), 2)
    s = x @ x.T / np.sqrt(8)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    with np.printoptions(precision=4, suppress=True):
        cells = [_cell("x = np.round(rng.standard_normal((4, 8)), 2)\nprint(x)", str(x)),
                 _cell("weights = softmax(x @ x.T / np.sqrt(8))\nprint(weights)", str(a)),
                 _cell("print('Attention weights shape:', weights.shape)", f"Attention weights shape: {weights_shape}"),
                 _cell("print('x shape:', x.shape)\nprint('scores shape:', (x @ x.T).shape)\n"
                       "print('output shape:', (weights @ x).shape)",
                       "x shape: (4, 8)\nscores shape: (4, 4)\noutput shape: (4, 8)"),
                 _cell("h = layer_norm(x + weights @ x)\nprint('After attention + residual + norm shape:', h.shape)",
                       "After attention + residual + norm shape: (4, 8)"),
                 _cell("logits = h @ W_vocab\nprint('Logits shape:', logits.shape)\n"
                       "print('Probabilities shape:', softmax(logits).shape)",
                       "Logits shape: (4, 20)\nProbabilities shape: (4, 20)"),
                 _cell("print('target output shape:', target_output.shape)",
                       "target output shape: torch.Size([2, 10])")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text: str) -> list:
    return error_findings(text, "ipynb")


def test_the_shapes_of_the_models_other_tensors_are_no_attention_claims():
    assert _errors(notebook()) == []


def test_a_wrong_shape_of_the_attention_weights_is_still_found():
    found = _errors(notebook("(4, 8)"))
    assert [(f.claim, f.printed) for f in found] == [("shape of A", "4×8")]
