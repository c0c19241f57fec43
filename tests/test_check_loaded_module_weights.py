"""Weights typed as literals, transposed (`W_q = torch.tensor([...]).T`), and loaded into an
nn.MultiheadAttention with `in_proj_weight.copy_(torch.cat([W_q, W_k, W_v]))`: the module applies them as x Wᵀ,
all three together, and its printed output follows from that; the weights it returns are averaged over its heads.  The notebook is this project's own; its printout
is what torch 2 prints for these inputs."""

import json

from check_helpers import error_findings

L = "[[0.2, -0.1, 0.4, 0.3], [0.5, 0.1, -0.2, 0.0], [-0.3, 0.6, 0.1, 0.2], [0.1, 0.2, 0.3, -0.4]]"
M = "[[0.3, 0.0, -0.2, 0.1], [0.1, 0.4, 0.2, -0.3], [0.2, -0.1, 0.5, 0.0], [-0.2, 0.3, 0.1, 0.2]]"
N = "[[0.6, 0.1, 0.0, -0.1], [0.0, 0.3, 0.2, 0.4], [-0.2, 0.1, 0.4, 0.1], [0.3, -0.3, 0.1, 0.2]]"
OUT = ("tensor([[[ 0.2718,  0.0164,  0.2827,  0.1214],\n         [ 0.2028,  0.0523,  0.2028,  0.0614],\n"
       "         [ 0.2623,  0.0708,  0.0849, -0.0224]]])")


WEIGHTS = ("tensor([[[0.3118, 0.2895, 0.3988],\n         [0.3273, 0.2979, 0.3749],\n"
           "         [0.3358, 0.3763, 0.2879]]])")


def notebook(out: str = OUT, weights: str = WEIGHTS) -> str:
    code = {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source":
            "X = torch.tensor([[[0.5, -1.2, 0.3, 0.8], [1.1, 0.4, -0.7, 0.2], [-0.3, 0.9, 1.4, -0.5]]])\n"
            f"W_q = torch.tensor({L}).T\nW_k = torch.tensor({M}).T\nW_v = torch.tensor({N}).T\n"
            "mha = nn.MultiheadAttention(4, 2, batch_first=True, bias=False)\nwith torch.no_grad():\n"
            "    mha.in_proj_weight.copy_(torch.cat([W_q, W_k, W_v]))\n    mha.out_proj.weight.copy_(torch.eye(4))"}
    run = {"cell_type": "code", "execution_count": 2, "metadata": {},
           "source": "out, w = mha(X, X, X)\nprint(out)\nprint(w)   # averaged over the two heads",
           "outputs": [{"output_type": "stream", "name": "stdout", "text": out + "\n" + weights + "\n"}]}
    return json.dumps({"cells": [code, run], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text: str) -> list:
    return error_findings(text, "ipynb")


def test_the_output_of_weights_loaded_into_the_module_is_checked():
    from mha.check import check_document
    r = check_document(notebook(), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 12
    assert "x Wᵀ" in r.configuration["W_Q"]


def test_a_slip_in_that_output_is_found():
    found = _errors(notebook(OUT.replace("0.0523", "0.0623")))
    assert [f.printed for f in found] == ["0.0623"]


def test_the_weights_nn_multiheadattention_averages_over_heads_are_checked():
    """w is the mean of the two heads' weights (average_attn_weights=True, the module's default)."""
    from mha.check import check_document
    assert check_document(notebook(), fmt="ipynb").n_numbers >= 21
    found = _errors(notebook(weights=WEIGHTS.replace("0.2979", "0.3079")))
    assert [f.printed for f in found] == ["0.3079"] and abs(found[0].exact - 0.2979) < 1e-4
