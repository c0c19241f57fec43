"""Q, K and V printed one row per token under a caption that gives their shape:

    Q (Queries) shape: (3, 2)
      The : [ 0.6600 -0.2200]
      cat : [0.7700 0.3300]

Outside trial t143b (a planted slip): each block was named after its first token ("The"), so the page seemed to
start from the printed raw scores, and a slip in those scores was blamed on the correct scaled score after them.
The caption names the block (readers/statements.py); the chain starts from Q, K and V, and a slip in the scores is
found where it is.
"""

import json

import numpy as np

from mha.check import check_document

X = np.array([[1.0, 0.2], [0.1, 0.9], [0.6, 0.5]])
Q = X @ np.array([[0.5, -0.3], [0.8, 0.4]])
K = X @ np.array([[0.2, 0.7], [-0.6, 0.1]])
V = X @ np.array([[1.0, 0.0], [0.3, 0.9]])
WORDS = ["The", "cat", "sat"]


def _cell(source: str, output: str = "") -> dict:
    outputs = [{"output_type": "stream", "name": "stdout", "text": output}] if output else []
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": source, "outputs": outputs}


def notebook(slip: float = 0.0) -> str:
    np.set_printoptions(precision=8, suppress=True)
    blocks = ""
    for name, M in (("Q (Queries)", Q), ("K (Keys)", K), ("V (Values)", V)):
        blocks += f"{name} shape: {M.shape}\n" + "".join(
            f"  {w:<4}: {np.array2string(r, precision=4, floatmode='fixed')}\n" for w, r in zip(WORDS, M)) + "\n"
    S = Q @ K.T
    scaled = S / np.sqrt(2)
    A = np.exp(scaled) / np.exp(scaled).sum(axis=1, keepdims=True)
    printed = S.copy()
    printed[0, 0] += slip
    cells = [
        _cell("import numpy as np\nrng = np.random.default_rng(0)\nQ, K, V = (rng.normal(size=(3, 2)) for _ in range(3))"
              "\nwords = ['The', 'cat', 'sat']"),
        _cell("for name, M in (('Q (Queries)', Q), ('K (Keys)', K), ('V (Values)', V)):\n"
              "    print(f'{name} shape: {M.shape}')\n    for w, r in zip(words, M):\n        print(f'  {w:<4}: {r}')\n"
              "    print()", blocks),
        _cell("scores = Q @ K.T\nprint(scores)", str(printed) + "\n"),
        _cell("scaled = scores / np.sqrt(2)\nprint(scaled)", str(scaled) + "\n"),
        _cell("weights = np.exp(scaled) / np.exp(scaled).sum(axis=1, keepdims=True)\nprint(weights)", str(A) + "\n"),
        _cell("out = weights @ V\nprint(out)", str(A @ V) + "\n"),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_the_captioned_rows_start_the_chain():
    r = check_document(notebook(), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.configuration["mode"].startswith("starts from Q, K, V given (Q at cell 2"), r.configuration


def test_a_slip_in_the_raw_scores_is_found_there():
    r = check_document(notebook(slip=-0.001), fmt="ipynb")
    assert [f.cell for f in r.errors] == [3], [f.describe() for f in r.findings]
