"""Dropout keeps a zero zero (issue 18, own-error recall): a notebook makes its weights causal, then prints
`dropout(attn_weights)`, and the output shown is the dropout of the weights from before the mask (a cell output
left from an earlier run).  Whatever the mask and the rate, an entry that is 0 before dropout is 0 after it, and a
kept entry is scaled up, never down; the entries that break this are found, and the cause names the earlier
printout they are a multiple of (claims/dropzero.py).  A correct dropout printout gives nothing, and a variable
rebound between its printout and the dropout is not judged.  My own notebook; every number is computed below with
plain NumPy (not mha)."""

import json

import numpy as np

from mha.check import check_document

SCORES = np.array([[0.9, 0.2, -0.4], [0.3, 1.1, 2.0], [-0.2, 0.6, 0.8]])
KEEP = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])          # the dropout mask, rate 0.5


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _tensor(m):
    rows = ["[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in m]
    return "tensor([" + (",\n        ").join(rows) + "])\n"


def _code(src, out):
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def notebook(stale: bool, rebind: bool = False) -> str:
    full = _softmax(SCORES)
    causal = _softmax(np.where(np.triu(np.ones((3, 3)), 1) > 0, -np.inf, SCORES))
    shown = 2 * KEEP * (full if stale else causal)
    cells = [
        _code("import torch\nattn_scores = torch.tensor([[0.9, 0.2, -0.4], [0.3, 1.1, 2.0], [-0.2, 0.6, 0.8]])", ""),
        _code("attn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)", _tensor(full)),
        _md("Now hide the later tokens with a causal mask."),
        _code("mask = torch.triu(torch.ones(3, 3), diagonal=1).bool()\n"
              "attn_weights = torch.softmax(attn_scores.masked_fill(mask, -torch.inf), dim=-1)\n"
              "print(attn_weights)", _tensor(causal)),
        _md("Dropout at rate 0.5 during training: the weights it keeps are doubled."),
    ]
    if rebind:
        cells.append(_code("attn_weights = torch.softmax(attn_scores, dim=-1)", ""))
    cells.append(_code("dropout = torch.nn.Dropout(0.5)\nprint(dropout(attn_weights))", _tensor(shown)))
    for k, c in enumerate(cells):
        c["id"] = f"c{k}"
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text):
    return [f for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]


def test_a_stale_dropout_printout_is_found_where_the_causal_zeros_are_not_zero():
    errs = [f for f in _errors(notebook(stale=True)) if f.step == "dropout"]
    full = _softmax(SCORES)
    # above the diagonal the causal weights are 0: what the mask keeps there must be 0 too
    above = [(i, j) for i in range(3) for j in range(3) if j > i and KEEP[i, j]]
    want = {f"{2 * full[i, j]:.4f}" for i, j in above}
    got = {f.printed for f in errs if f.exact == 0.0}
    assert want and got == want
    assert all("cell 2" in f.cause and "earlier run" in f.cause for f in errs)
    # a kept entry below its input: row 2 of the full weights, doubled, is still below the causal row
    causal = _softmax(np.where(np.triu(np.ones((3, 3)), 1) > 0, -np.inf, SCORES))
    shrunk = {f"{2 * full[i, j]:.4f}" for i in range(3) for j in range(3)
              if j <= i and KEEP[i, j] and 2 * full[i, j] < causal[i, j] - 1e-4}
    assert shrunk and shrunk <= {f.printed for f in errs if f.exact is None}


def test_the_dropout_of_the_causal_weights_holds():
    assert _errors(notebook(stale=False)) == []


def test_a_variable_rebound_before_the_dropout_is_not_judged():
    assert [f for f in _errors(notebook(stale=True, rebind=True)) if f.step == "dropout"] == []
