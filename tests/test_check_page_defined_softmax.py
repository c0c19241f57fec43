"""A notebook that defines its own softmax, normalising columns (`np.sum(np.exp(x), axis=0)`), and prints the
weights it gives and their product with V.  Those printouts are what the code computes; the configuration (a
row-wise softmax) does not explain them, and that makes them neither stale nor wrong.  The notebook is this
project's own."""

import json

import numpy as np

Q = np.array([[0.2, 1.1, 0.5], [0.9, 0.3, 0.4], [0.6, 0.8, 0.1]])
K = np.array([[0.7, 0.2, 0.9], [0.1, 1.0, 0.3], [0.5, 0.4, 0.6]])
V = np.array([[1.0, 0.5], [0.2, 0.8], [0.6, 0.1]])


def _cell(src: str, value: np.ndarray | None = None) -> dict:
    with np.printoptions(precision=4, suppress=True):
        out = [] if value is None else [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                         "data": {"text/plain": repr(value)}}]
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src, "outputs": out}


def notebook(scale_out: float = 1.0) -> str:
    s = Q.dot(K.T) / np.sqrt(3)
    m = np.where(np.tril(np.ones((3, 3))) > 0, s, -np.inf)
    a = np.exp(m) / np.sum(np.exp(m), axis=0)
    out = a @ V * scale_out
    cells = [_cell(f"Q = np.array({Q.tolist()})\nQ", Q), _cell(f"K = np.array({K.tolist()})\nK", K),
             _cell(f"V = np.array({V.tolist()})\nV", V),
             _cell("scores = Q.dot(K.T) / np.sqrt(3)\nscores", s),
             _cell("masked = np.where(np.tril(np.ones((3, 3))) > 0, scores, -np.inf)\nmasked", m),
             _cell("def softmax(x):\n    return np.exp(x) / np.sum(np.exp(x), axis=0)"),
             _cell("weights = softmax(masked)\nweights", a),
             _cell("out = weights @ V\nout", out)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_what_the_pages_own_softmax_gives_is_not_called_stale():
    from mha.check import check_document
    r = check_document(notebook(), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == []
    assert r.n_claims >= 4                      # Q, K, V and the scores hold
    assert not [n for n in r.not_checked if "stale" in n.reason], [n.reason for n in r.not_checked]


def test_an_output_that_is_not_the_product_of_its_printouts_is_still_called_stale():
    """The last printout far from weights @ V in every entry (a cell run before the weights changed): off its own
    code, so stale as before; the exemption above is only for what the code gives."""
    from mha.check import check_document
    r = check_document(notebook(scale_out=1.3), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == []
    assert [n.cell for n in r.not_checked if "stale" in n.reason] == [8]
