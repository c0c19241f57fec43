"""A notebook that runs the same attention on three examples, each under its own heading ("## Example 1: small
vectors", "## Example 2: vectors ten times larger"), prints each example's query matrix and its weights, and names
the keys `K1`, then `K`.  The start was made of the query matrix printed under Example 1 and the `K` given under
Example 2, so Example 2's weights were judged against scores of neither (false findings on a TensorFlow notebook in
t229c).  Inputs under headings that number different examples make no start together (infer/starts.py
`_other_examples`).  My own notebook."""

import json

import numpy as np

from check_helpers import error_findings

K_SMALL = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0]], dtype=float)
V = np.array([[2, 0], [0, 4], [6, 0], [1, 1]], dtype=float)


def _weights(Q, K):
    s = Q @ K.T / np.sqrt(3)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _np(m, fmt="{: .8e}"):
    return "[" + "\n ".join("[" + " ".join(fmt.format(v) for v in r) + "]" for r in m) + "]"


def _code(src, out=None, n=1):
    cell = {"cell_type": "code", "execution_count": n, "metadata": {}, "source": src, "outputs": []}
    if out is not None:
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": out}]
    return cell


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _notebook(big_weights=None):
    Q1, Q2 = np.eye(3), 10 * np.eye(3)
    w1, w2 = _weights(Q1, K_SMALL), _weights(Q2, 10 * K_SMALL)
    w2 = w2 if big_weights is None else big_weights
    cells = [
        _md("## Example 1: small vectors"),
        _code("K1 = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0]])\n"
              "V1 = np.array([[2, 0], [0, 4], [6, 0], [1, 1]])", n=1),
        _code("Q = np.eye(3)\nprint(f'Query matrix: \\n{Q}')\nshow_attention(Q, K1, V1)",
              f"Query matrix: \n{_np(Q1, '{:.0f}.')}\nWeights are:\n {_np(w1)}\n", n=2),
        _md("## Example 2: vectors ten times larger"),
        _code("K = np.array([[0, 10, 0], [10, 0, 0], [0, 0, 10], [10, 0, 0]])\n"
              "V = np.array([[2, 0], [0, 4], [6, 0], [1, 1]])", n=3),
        _code("Q4 = 10 * np.eye(3)\nprint(f'Query matrix: \\n{Q4}')\nshow_attention(Q4, K, V)",
              f"Query matrix: \n{_np(Q2, '{:.0f}.')}\nWeights are:\n {_np(w2)}\n", n=4),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text):
    return error_findings(text, "ipynb")


def test_no_start_mixes_the_examples():
    errs = _errors(_notebook())
    assert errs == [], [f.describe() for f in errs]
