"""A notebook prints the masked scores of its first batch element (`masked_logits[0]`) and then the weights of the
whole batch (`weights = torch.softmax(masked_logits, dim=-1)`, shown whole).  The first slice of the weights is
the softmax of the printed scores; the second's scores are never printed.  The page was refused ("the numbers
found are the inputs only"); the first slice is judged now, and a slip in it is found on its line."""

import json

import numpy as np

from mha.check import check_document

S = np.array([[[0.3141, -np.inf, -np.inf], [0.8823, -0.1570, -np.inf], [-0.4410, 0.2756, 0.6094]],
              [[1.1021, -np.inf, -np.inf], [-0.3370, 0.4410, -np.inf], [0.0511, -0.9275, 0.2266]]])


def _rows(M) -> str:
    return ",\n        ".join("[" + ", ".join("   -inf" if np.isneginf(x) else f"{x:7.4f}" for x in r) + "]" for r in M)


def _notebook(slip: float = 0.0) -> str:
    e = np.exp(S - S.max(-1, keepdims=True))
    W = e / e.sum(-1, keepdims=True)
    W[0, 2, 1] += slip
    weights = "tensor([" + ",\n\n        ".join("[" + _rows(b).replace("\n        ", "\n         ") + "]" for b in W) + "])"

    def cell(n, src, out=None):
        c = {"cell_type": "code", "execution_count": n, "id": f"c{n}", "metadata": {}, "source": src, "outputs": []}
        if out is not None:
            c["outputs"] = [{"output_type": "execute_result", "execution_count": n, "metadata": {},
                             "data": {"text/plain": out}}]
        return c
    cells = [cell(1, "masked_logits = logits.masked_fill(mask == 0, float('-inf'))"),
             cell(2, "masked_logits[0]", "tensor([" + _rows(S[0]) + "])"),
             cell(3, "weights = torch.softmax(masked_logits, dim=-1)"),
             cell(4, "weights", weights)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_first_batch_element_of_the_weights_is_judged():
    r = check_document(_notebook(), fmt="ipynb")
    assert not r.findings and r.n_numbers >= 5, [f.describe() for f in r.findings]


def test_slip_in_the_first_batch_element_is_found():
    r = check_document(_notebook(slip=0.002), fmt="ipynb")
    errors = [f for f in r.findings if f.severity == "error"]
    assert len(errors) == 1 and errors[0].rounded == "0.3467", [f.describe() for f in r.findings]
