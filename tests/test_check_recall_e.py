"""`mha check` on readings found missing on documents written by others (the field trial's set E), each shown with
a document of our own: sizes set in code by a tuple assignment (`T, d_k, d_v = 3, 6, 2`), which give the scale of
printed scores when the queries and keys are never printed.

Every expected value here was computed with plain NumPy (see each test), not with mha."""

import json

import numpy as np
from mha.check import check_document

# ---------------------------------------------------------------- sizes from a tuple assignment

_RNG = np.random.default_rng(7)
_Q, _K = _RNG.normal(size=(3, 6)).round(2), _RNG.normal(size=(3, 6)).round(2)
_V = _RNG.normal(size=(3, 2)).round(2)
_S = _Q @ _K.T                                  # the raw scores; d_k = 6 is stated only in the code
_SCALED = _S / np.sqrt(6)
_A = np.exp(_SCALED - _SCALED.max(axis=1, keepdims=True))
_A /= _A.sum(axis=1, keepdims=True)
_OUT = _A @ _V


def _torch(m: np.ndarray) -> str:
    rows = [", ".join(f"{x:7.4f}" for x in r) for r in m]
    return "tensor([[" + "],\n        [".join(rows) + "]])"


def _nb(sizes: str, scaled: str | None = None) -> str:
    def out(*pairs):
        return [{"output_type": "stream", "name": "stdout", "text": "".join(f"{a}\n{b}\n" for a, b in pairs)}]

    def code(src, outputs):
        return {"cell_type": "code", "id": f"c{len(src)}", "execution_count": None, "metadata": {}, "source": src,
                "outputs": outputs}
    cells = [{"cell_type": "markdown", "id": "m0", "metadata": {},
              "source": "# Scores first\n\nThe queries and keys stay hidden."},
             code(f"import math\nimport torch\n{sizes}\nQ = torch.randn(T, d_k)\nK = torch.randn(T, d_k)\n"
                  "V = torch.randn(T, d_v)", []),
             code("scores = Q @ K.T\nprint('raw scores:')\nprint(scores)", out(("raw scores:", _torch(_S)))),
             code("scaled = scores / math.sqrt(d_k)\nprint('scaled scores:')\nprint(scaled)",
                  out(("scaled scores:", scaled or _torch(_SCALED)))),
             code("weights = torch.softmax(scaled, dim=-1)\nprint('attention weights:')\nprint(weights)",
                  out(("attention weights:", _torch(_A)))),
             code("print('values:')\nprint(V)\nout = weights @ V\nprint('output:')\nprint(out)",
                  out(("values:", _torch(_V)), ("output:", _torch(_OUT))))]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_sizes_of_a_tuple_assignment_give_the_scale_of_printed_scores():
    r = check_document(_nb("T, d_k, d_v = 3, 6, 2"), name="scores.ipynb")
    assert "d_k = 6" in json.dumps(r.configuration), r.configuration
    assert not [f for f in r.findings if f.severity == "error"]
    assert r.n_numbers >= 24                     # scaled scores, weights and output are all checked


def test_a_slip_in_the_scaled_scores_is_found_on_its_line():
    wrong = _SCALED.copy()
    wrong[1, 2] = -wrong[1, 2]                   # a dropped sign in the second row
    r = check_document(_nb("T, d_k, d_v = 3, 6, 2", _torch(wrong)), name="scores.ipynb")
    errs = [f for f in r.findings if f.severity == "error"]
    assert [(f.cell, f.step) for f in errs] == [(4, "scale")], [f.describe() for f in errs]
    assert f"{abs(_SCALED[1, 2]):.4f}" in errs[0].describe()


def test_without_the_sizes_the_scaled_scores_are_taken_as_given():
    # no d_k anywhere: the scale cannot be known, so the scaled scores are the start and the raw ones unchecked
    r = check_document(_nb("T, d_k, d_v = n, m, 2"), name="scores.ipynb")
    assert "d_k = 6" not in json.dumps(r.configuration)
    assert not [f for f in r.findings if f.severity == "error"]
