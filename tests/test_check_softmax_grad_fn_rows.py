"""A torch printout of two rows of weights whose grad_fn says they are a softmax's output (t227c, a cross-attention
notebook: `Attention Weights:` then `tensor([[0.3462, 0.3255, 0.3283], [0.3487, 0.3244, 0.3269]],
grad_fn=<SoftmaxBackward0>)`, from seeded weights that are never printed).  The rows' sums were its only claim,
and it needed two rows that sum to 1 before any was judged: with one row slipped, nothing was checked.  torch's
own word that the tensor is a softmax's output identifies it; one row of two that sums to 1 confirms the axis
(readers/printnames.py, claims/rowsum.py `output_weights`).  My own weights."""

import json



def _notebook(row2):
    out = ("Cross-Attention Output:\n tensor([[0.4120, 0.2210],\n        [0.4010, 0.2330]], grad_fn=<MmBackward0>)\n\n"
           "Attention Weights:\n tensor([[0.2710, 0.4150, 0.3140],\n        [" + row2 + "]], "
           "grad_fn=<SoftmaxBackward0>)\n")
    cell = {"cell_type": "code", "execution_count": 3, "metadata": {},
            "source": "torch.manual_seed(7)\nout, attn_weights = cross(decoder_states, encoder_states)\n"
                      "print(\"Cross-Attention Output:\\n\", out)\nprint(\"\\nAttention Weights:\\n\", attn_weights)",
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text):
    from mha.check import check_document
    return [f for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]


def test_the_rows_as_printed_sum_to_one():
    assert abs(0.2710 + 0.4150 + 0.3140 - 1) < 1e-9 and abs(0.2980 + 0.3760 + 0.3260 - 1) < 1e-9


def test_the_clean_printout_checks_clean():
    assert _errors(_notebook("0.2980, 0.3760, 0.3260")) == []


def test_a_slipped_row_is_found():
    errs = _errors(_notebook("0.2980, 0.3670, 0.3260"))
    assert [(f.cell, f.line) for f in errs] == [(1, 7)]   # the row's line in the cell's output
    assert errs[0].cause.endswith("this one sums to 0.991")
