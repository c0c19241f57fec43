"""A notebook that prints its nn.Parameter weights as `print("w_query = ", w_query)`: the output reads
"w_query =  Parameter containing:" over "tensor([[...]], requires_grad=True)".  The name belongs to the tensor
below it, so the projection Q = X W_Q is judged; before, the weights went unlabelled and Q was taken as given."""

import json

import numpy as np
import pytest

from mha.check import check_document

X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33]])
W = {"query": np.array([[0.21, -0.47], [0.88, 0.12], [-0.35, 0.64]]),
     "key": np.array([[-0.52, 0.31], [0.27, 0.94], [0.73, -0.18]]),
     "value": np.array([[0.66, 0.05], [-0.29, 0.41], [0.14, 0.83]])}


def _tensor(M, tail):
    rows = (",\n        ").join("[" + ", ".join(f"{x:7.4f}" for x in r) + "]" for r in M)
    return f"tensor([{rows}]{tail})"


def _notebook(sep: str, q_slip: float = 0.0) -> str:
    Q, K = X @ W["query"], X @ W["key"]
    Q = Q.copy()
    Q[1, 0] += q_slip
    S = (X @ W["query"]) @ K.T
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)

    def cell(src, out=None):
        c = {"cell_type": "code", "execution_count": 1, "id": f"c{len(src)}", "metadata": {}, "source": src,
             "outputs": []}
        if out is not None:
            c["outputs"] = [{"output_type": "stream", "name": "stdout", "text": out}]
        return c
    params = "".join(f"w_{n}{sep}Parameter containing:\n{_tensor(W[n], ', requires_grad=True')}\n" for n in W)
    cells = [
        cell("import torch\ninputs = torch.tensor(" + json.dumps(X.tolist()) + ")"),
        cell("w_query = torch.nn.Parameter(torch.randn(3, 2))\nw_key = torch.nn.Parameter(torch.randn(3, 2))\n"
             "w_value = torch.nn.Parameter(torch.randn(3, 2))"),
        cell("".join(f'print("w_{n}{sep}", w_{n})\n' for n in W), params),
        cell("query = inputs @ w_query\nkey = inputs @ w_key\nprint(\"query = \", query)\nprint(\"key = \", key)",
             f"query =  {_tensor(Q, ', grad_fn=<MmBackward0>')}\nkey =  {_tensor(K, ', grad_fn=<MmBackward0>')}\n"),
        cell("scores = query @ key.T\nweights = torch.softmax(scores, dim=-1)\nprint(weights)",
             _tensor(A, ", grad_fn=<SoftmaxBackward0>") + "\n"),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("sep", [" = ", "=", ": "])
def test_parameter_caption_names_the_tensor_below(sep):
    r = check_document(_notebook(sep), fmt="ipynb")
    assert not r.findings, [f.describe() for f in r.findings]
    assert r.configuration.get("W_Q", "").startswith("W_Q printed"), r.configuration


@pytest.mark.parametrize("sep", [" = ", "=", ": "])
def test_slip_in_the_projection_is_found_on_its_entry(sep):
    r = check_document(_notebook(sep, q_slip=0.01), fmt="ipynb")
    errors = [f for f in r.findings if f.severity == "error"]
    assert [f.claim for f in errors] == ["Q[2,1]"] or [f.claim.split("[")[0] for f in errors] == ["Q"], \
        [f.describe() for f in r.findings]
