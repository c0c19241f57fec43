"""A notebook that works causal attention on one sequence, then stacks that sequence twice into a batch
(`torch.stack((inputs, inputs))`, torch.Size([2, 4, 3])) and prints the shapes of modules run on the batch: one
head (2×4×2) and two heads concatenated (2×4×4) (an outside trial's notebook after a well-known book chapter, t255b).
Both shapes were judged against the single sequence's O (1×4×2) and reported wrong.  A printed shape with a leading
dimension above 1, where the example is one sequence of that many tokens, is of a batch run through modules the
configuration does not hold: not judged.  My own numbers; the notebook is built here from NumPy."""

import json

import numpy as np
from check_helpers import error_findings

X = np.array([[0.2, 0.7, 0.1], [0.9, 0.3, 0.4], [0.5, 0.5, 0.8], [0.1, 0.6, 0.3]])
W_Q = np.array([[0.3, 0.8], [0.5, 0.1], [0.9, 0.4]])
W_K = np.array([[0.6, 0.2], [0.1, 0.7], [0.4, 0.9]])
W_V = np.array([[0.7, 0.5], [0.2, 0.3], [0.8, 0.1]])


def _rows(M, indent=8):
    return (",\n" + " " * indent).join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in M)


def _cell(src, out):
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out + "\n"}]}


def _notebook(one_head="torch.Size([2, 4, 2])", two_heads="torch.Size([2, 4, 4])"):
    S = (X @ W_Q) @ (X @ W_K).T / np.sqrt(2)
    S[np.triu_indices(4, 1)] = -np.inf
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    O = A @ (X @ W_V)
    batch = "tensor([[" + _rows(O, 9) + "],\n\n        [" + _rows(O, 9) + "]], grad_fn=<UnsafeViewBackward0>)"
    cells = [
        _cell("inputs = torch.tensor([[0.2, 0.7, 0.1], [0.9, 0.3, 0.4], [0.5, 0.5, 0.8], [0.1, 0.6, 0.3]])\n"
              "print(inputs)", "tensor([" + _rows(X) + "])"),
        *[_cell(f"print({name})", "Parameter containing:\ntensor([" + _rows(W) + "], requires_grad=True)")
          for name, W in (("W_query", W_Q), ("W_key", W_K), ("W_value", W_V))],
        _cell("attn_weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=-1)\nprint(attn_weights)",
              "tensor([" + _rows(A) + "], grad_fn=<SoftmaxBackward0>)"),
        _cell("context_vecs = attn_weights @ values\nprint(context_vecs)",
              "tensor([" + _rows(O) + "], grad_fn=<MmBackward0>)"),
        _cell("batch = torch.stack((inputs, inputs), dim=0)\nprint(batch.shape)", "torch.Size([2, 4, 3])"),
        _cell("ca = CausalAttention(d_in, d_out, context_length, 0.0)\ncontext_vecs = ca(batch)\n"
              "print(context_vecs)\nprint(\"context_vecs.shape:\", context_vecs.shape)",
              batch + "\ncontext_vecs.shape: " + one_head),
        _cell("mha = MultiHeadAttentionWrapper(d_in, d_out, context_length, 0.0, num_heads=2)\n"
              "context_vecs = mha(batch)\nprint(\"context_vecs.shape:\", context_vecs.shape)",
              "context_vecs.shape: " + two_heads),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_batched_runs_shapes_are_not_judged_against_one_sequence():
    assert error_findings(_notebook(), fmt="ipynb") == []


def test_a_slip_in_the_single_sequence_is_still_found():
    page = json.loads(_notebook())
    out = page["cells"][5]["outputs"][0]
    first = out["text"].split("[[")[1].split(",")[0]          # O[1,1] as printed
    slipped = f"{float(first) + 0.1:.4f}"
    out["text"] = out["text"].replace("[[" + first, "[[" + slipped, 1)
    found = error_findings(json.dumps(page), fmt="ipynb")
    # (found as its matrix's entry and as the odd one of the copies printed in the batch: one number, on one line)
    assert {(f.cell, f.line, f.printed) for f in found} == {(6, 1, slipped)}
