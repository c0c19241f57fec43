"""What the code says a printout is, whatever its name suggests.

A notebook may call its raw scores `A1` (`A1 = torch.mm(queries, keys.T)`, printed in a later cell together with its
shape), divide them by a divisor kept in a variable (`A2 = A1 / scaler`, `scaler = torch.sqrt(torch.tensor(4.))`,
where 4 is no width the notebook prints), and call the softmax `A3`.  Read by their names, `A1` and `A3` are the
weights of head 1 and head 3, nothing fits, and the notebook was refused ("the numbers found are the inputs only").
Read by their code, they are the scores, the scaled scores and the weights: a slip in any of them is found where it
is, and a slip in the given scores is found on the scaled line (not as a wrong row of weights)."""

import json

import numpy as np

from mha.check import check_document

A1 = np.array([[0.3127, -0.1184, 0.0531], [0.4406, 0.2693, -0.3618], [-0.0815, 0.1937, 0.6242]])
A2 = A1 / 2.0
A3 = np.exp(A2) / np.exp(A2).sum(axis=1, keepdims=True)


def _t(M, grad: str, shape: bool) -> str:
    rows = ",\n         ".join("[" + ", ".join(f"{x: .4f}" for x in r) + "]" for r in M)
    body = f"tensor([{rows}], grad_fn=<{grad}>)"
    return f"({body},\n torch.Size([{M.shape[0]}, {M.shape[1]}]))" if shape else body


def _code(src: str, out: str | None = None, n: int = 1) -> dict:
    outputs = [] if out is None else [{"output_type": "execute_result", "execution_count": n, "metadata": {},
                                       "data": {"text/plain": out}}]
    return {"cell_type": "code", "execution_count": n, "metadata": {}, "source": src, "outputs": outputs}


def notebook(slip_scaled: bool = False, slip_weights: bool = False) -> str:
    S = A2.round(4)
    W = A3.round(4)
    if slip_scaled:
        S[2, 1] += 0.0010
    if slip_weights:
        W[1, 0] += 0.0010
    cells = [
        _code("import torch\nimport torch.nn.functional as F\nx = torch.rand(5, 3)", n=1),
        _code("proj_q = torch.nn.Linear(5, 4, bias=False)\nproj_k = torch.nn.Linear(5, 4, bias=False)\n"
              "queries = proj_q(x.T)\nkeys = proj_k(x.T)", n=2),
        _code("# the raw filter\nA1 = torch.mm(queries, keys.T)", n=3),
        _code("A1, A1.shape", _t(A1, "MmBackward", True), n=4),
        _code("scaler = torch.sqrt(torch.tensor(4.))", n=5),
        _code("A2 = A1/scaler", n=6),
        _code("A2", _t(S, "DivBackward0", False), n=7),
        _code("A3 = F.softmax(A2, 1)\nA3, A3.shape", _t(W, "SoftmaxBackward", True), n=8),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})


def test_scores_named_by_their_code_are_checked_not_refused():
    r = check_document(notebook(), fmt="ipynb")
    assert r.ok, [f.claim for f in r.errors]
    assert r.n_numbers >= 18                      # the scaled scores and the weights, 9 each
    assert "raw scores" in r.configuration.get("mode", "")
    assert r.configuration.get("scale", "").startswith("0.5")


def test_a_slip_in_the_weights_is_found_on_its_line():
    r = check_document(notebook(slip_weights=True), fmt="ipynb")
    assert [(f.cell, f.printed) for f in r.errors] == [(8, f"{A3[1, 0].round(4) + 0.001:.4f}")]


def test_a_slip_in_the_scaled_scores_is_found_there_not_in_the_weights():
    r = check_document(notebook(slip_scaled=True), fmt="ipynb")
    assert [f.cell for f in r.errors] == [7]
