"""A batch of two given as Q, K and V printouts and the output of `softmax(QKᵀ/√d_k)V` printed by an f-string with
its shape after it (t228c, a notebook testing its own attention function: `print(f"output: {output},
output-shape: {output.shape}")`).  The output's line was not read at all (the repr runs on into `, output-shape:`,
readers/python.py `_REPR_THEN_NAMED`); read, it matched the configuration in all but the few entries the inputs'
four-decimal rounding moves, and a batched printout matched slice by slice ("stack") did not count towards
confirming the start, so the page was refused and its slips missed (infer/search.py).  My own tensors: random, the
printouts rounded as torch rounds them, the output computed from the unrounded values as the notebook's was."""

import json

import numpy as np

rng = np.random.default_rng(11)
Q, K, V = (rng.normal(size=(2, 3, 4)) for _ in range(3))


def _t3(m):
    blocks = ["[" + ",\n         ".join("[" + ", ".join(f"{v:7.4f}" for v in r) + "]" for r in b) + "]" for b in m]
    return "tensor([" + ",\n\n        ".join(blocks) + "])"


def _output():
    S = Q @ K.transpose(0, 2, 1) / 2
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V


def _notebook(out_text=None):
    qkv = f"Q: {_t3(Q)}, \nK: {_t3(K)}, \nV: {_t3(V)}\n"
    out = out_text or _t3(_output())
    cells = [
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "source": "Q = torch.randn(2, 3, 4)\nK = torch.randn(2, 3, 4)\nV = torch.randn(2, 3, 4)\n"
                   "output = attention(Q, K, V)\nprint(f\"Q: {Q}, \\nK: {K}, \\nV: {V}\")",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": qkv}]},
        {"cell_type": "code", "execution_count": 2, "metadata": {},
         "source": "print(f\"output: {output}, output-shape: {output.shape}\")",
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": f"output: {out}, output-shape: torch.Size([2, 3, 4])\n"}]},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="ipynb")


def test_the_output_is_read_and_checks_clean():
    r = _report(_notebook())
    assert r.errors == [] and r.n_numbers >= 24, r.configuration


def test_a_slip_in_the_output_is_found():
    out = _output()
    shown = f"{out[1, 2, 1]:7.4f}"
    slipped = f"{out[1, 2, 1] + 0.02:7.4f}"
    text = _notebook(_t3(out).replace(shown, slipped, 1))
    errs = _report(text).errors
    assert [(f.cell, f.printed) for f in errs] == [(2, slipped.strip())]
