"""A notebook that prints the raw scores, echoes `d_k` (its output `2`), divides the same variable by
`torch.sqrt(d_k)` and prints it again, then prints `exp_scores` and the weights.

Outside trial t137a: the checker started from the second printout (the scaled scores, taken as raw), so the scale
step and the exponentials went unchecked ("another example's input"); a slip in `exp_scores` passed.  An echoed
whole number is the size it names (readers/notebook.py), and `exp_scores` names the exponentials, not the
scores (vocabulary.py).
"""

import json

import nbformat
import pytest

from mha.check import check_document


def _notebook(exp_row: str = "[3.4623e-01, 1.6919e+01, 1.0406e-01]") -> str:
    nb = nbformat.v4.new_notebook()

    def code(src: str, out: str | None = None):
        c = nbformat.v4.new_code_cell(src)
        if out is not None:
            c.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": out}, execution_count=1)]
        nb.cells.append(c)
    code("scores = Q @ K.T")
    code("scores", "tensor([[-1.5000,  4.0000, -3.2000],\n        [ 2.6000, -9.0000, 15.0000],\n"
                   "        [-2.0000,  7.0000, -2.5000]])")
    code("d_k = Q.shape[-1]")
    code("d_k", "2")
    code("scores = scores / torch.sqrt(torch.tensor(d_k, dtype=torch.float32))")
    code("scores", "tensor([[-1.0607,  2.8284, -2.2627],\n        [ 1.8385, -6.3640, 10.6066],\n"
                   "        [-1.4142,  4.9497, -1.7678]])")
    code("exp_scores = torch.exp(scores)\nweights = exp_scores / exp_scores.sum(dim=-1, keepdim=True)")
    code("weights", "tensor([[1.9933e-02, 9.7408e-01, 5.9914e-03],\n        [1.5559e-04, 4.2630e-08, 9.9984e-01],\n"
                    "        [1.7175e-03, 9.9708e-01, 1.2060e-03]])")
    code("exp_scores", f"tensor([{exp_row},\n        [6.2870e+00, 1.7225e-03, 4.0401e+04],\n"
                       "        [2.4312e-01, 1.4114e+02, 1.7071e-01]])")
    return json.dumps(nb)


def test_the_chain_starts_at_the_raw_scores_and_holds():
    r = check_document(_notebook(), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "d_k = 2" in r.configuration.get("scale", ""), r.configuration
    assert r.n_numbers >= 27, r.n_numbers


@pytest.mark.parametrize("row", ["[3.4623e-01, 1.6991e+01, 1.0406e-01]", "[3.6423e-01, 1.6919e+01, 1.0406e-01]"])
def test_a_slip_in_the_exponentials_is_found(row):
    r = check_document(_notebook(row), fmt="ipynb")
    assert [f.cell for f in r.errors] == [9], [f.describe() for f in r.findings]
