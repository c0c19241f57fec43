"""Weights printed with no name from inside a module's forward (t155c, a causal-attention notebook): `print(w)` in
`forward()`, called in a later cell that prints its result too, shows `tensor([[...]], grad_fn=<SoftmaxBackward0>)`.  With no name the printout matched nothing and the
page was refused ("the numbers found are the inputs only").  torch's grad_fn says the tensor is a softmax's output,
so it is read as the weights, and each of its rows must sum to 1 (readers/python._softmax_grad_fn)."""

import json

import numpy as np

from mha.check import check_document

S = np.array([[0.42, -np.inf, -np.inf, -np.inf],
              [1.13, -0.27, -np.inf, -np.inf],
              [0.05, 0.61, -0.88, -np.inf],
              [-0.34, 0.92, 0.15, 0.47]])


def _weights() -> np.ndarray:
    e = np.exp(S - S.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _notebook(slip: float = 0.0) -> str:
    W = np.round(_weights(), 4)
    W[2, 1] += slip
    rows = ",\n        ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in W)
    printed = ("tensor([" + rows + "], grad_fn=<SoftmaxBackward0>)\n"
               "tensor([[ 0.2215, -0.4108],\n        [ 0.1372, -0.2650]], grad_fn=<MmBackward0>)\n")
    src = ("class CausalAttention(nn.Module):\n"
           "    def forward(self, x):\n"
           "        s = self.q(x) @ self.k(x).T / self.d ** 0.5\n"
           "        w = torch.softmax(s.masked_fill(self.mask, float('-inf')), dim=-1)\n"
           "        print(w)\n"
           "        return w @ self.v(x)")
    define = {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "source": src, "outputs": []}
    call = {"cell_type": "code", "execution_count": 2, "id": "c2", "metadata": {},
            "source": "out = CausalAttention(4)(torch.rand(4, 4))\nprint(out[:2])",
            "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}]}
    cells = [define, call]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_printed_rows_sum_to_one():
    W = np.round(_weights(), 4)
    assert np.all(np.abs(W.sum(-1) - 1) <= 2e-4)
    assert np.all(W[np.triu_indices(4, 1)] == 0)


def test_the_unnamed_softmax_printout_is_checked_not_refused():
    r = check_document(_notebook(), fmt="ipynb")
    assert not r.errors and r.n_claims >= 1 and r.n_numbers >= 16, [f.describe() for f in r.findings]


def test_a_slip_in_it_is_found_on_its_row():
    r = check_document(_notebook(slip=0.01), fmt="ipynb")
    assert [(f.line, f.cell) for f in r.errors] == [(3, 2)], [f.describe() for f in r.findings]
