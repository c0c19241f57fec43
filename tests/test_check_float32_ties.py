"""torch computes in float32: an output whose exact value lies a hair past a rounding tie (0.764650058, which
rounds to 0.7647) may print the other way (float32 gives 0.76465 a hair below, shown 0.7646).  A careful reader
does not call that a slip; a torch printout's numbers are read a few float32 units wide.  The notebook is this
project's own, its printouts those torch 2 prints for these inputs."""

import json

from check_helpers import error_findings


def _cell(src: str, out: str) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out + "\n"}]}


def notebook(entry: str = "0.7646") -> str:
    cells = [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
              "source": "X = torch.tensor([[-0.64, 0.72], [1.06, 1.09]])"},
             _cell("scores = X @ X.T\nprint(scores)", "tensor([[0.9280, 0.1064],\n        [0.1064, 2.3117]])"),
             _cell("weights = torch.softmax(scores / math.sqrt(2), dim=-1)\nprint(weights)",
                   "tensor([[0.6413, 0.3587],\n        [0.1737, 0.8263]])"),
             _cell("out = weights @ X\nprint(out)", f"tensor([[-0.0302,  0.8527],\n        [ {entry},  1.0257]])")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text: str) -> list:
    return error_findings(text, "ipynb")


def test_a_float32_rounding_at_a_tie_is_no_slip():
    from mha.check import check_document
    r = check_document(notebook(), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 16


def test_a_slip_in_that_entry_is_still_found():
    found = _errors(notebook("0.7746"))
    assert [f.printed for f in found] == ["0.7746"]
