"""A notebook cell that computes a softmax of a literal vector and prints it with words before it:

    x = torch.tensor([1.0, 2.0, 3.0])
    y = torch.softmax(x, dim=-1)
    print("Softmax result:", y)          ->   Softmax result: tensor([0.0900, 0.2447, 0.6652])

The output line is read under its caption "Softmax result"; the value's code name (y, or the call printed in its
place) was lost, so the three weights were tied to nothing and the notebook was refused ("the numbers found are the
inputs only"), a slip in them never found.  Three weights are tied to their scores only where the code says so;
the code says so here, in every one of these forms.  My own cells; the weights are NumPy's, at four decimals."""

import json

import numpy as np
import pytest

from mha.check import check_document

SCORES = [0.5, 1.5, -0.25]
FORMS = {
    "bound, then printed bare": ("y = torch.softmax(x, dim=-1)\nprint(y)", "{}"),
    "bound, then printed after words": ("y = torch.softmax(x, dim=-1)\nprint('Softmax result:', y)",
                                         "Softmax result: {}"),
    "the call printed after words": ("print('Softmax result:', torch.softmax(x, dim=-1))", "Softmax result: {}"),
}


def _weights():
    e = np.exp(np.array(SCORES) - max(SCORES))
    return e / e.sum()


def _notebook(code, shown, slip=None):
    printed = "tensor([" + ", ".join(f"{w:.4f}" for w in _weights()) + "])"
    if slip:
        printed = printed.replace(*slip)
    cell = {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
            "source": f"x = torch.tensor({SCORES})\n" + code,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": shown.format(printed) + "\n"}]}
    head = {"cell_type": "markdown", "id": "m0", "metadata": {}, "source": "# Softmax of three scores"}
    return json.dumps({"cells": [head, cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("form", FORMS)
def test_the_printed_weights_are_checked(form):
    r = check_document(_notebook(*FORMS[form]), fmt="ipynb")
    assert not r.errors and r.n_numbers == 3, ([f.describe() for f in r.findings], r.n_numbers)


@pytest.mark.parametrize("form", FORMS)
def test_a_slipped_weight_is_found(form):
    right = f"{_weights()[0]:.4f}"
    wrong = f"{float(right) + 0.01:.4f}"
    r = check_document(_notebook(*FORMS[form], slip=(right, wrong)), fmt="ipynb")
    assert [f.printed for f in r.errors] == [wrong], [f.describe() for f in r.findings]
