"""Attention weights printed by a loop, one entry a line under each word (`  to 'read': 0.188`), as notebooks show
who attends to whom.

Outside trial t141e: a notebook printed its whole matrix this way after printing it as a tensor; a slip in the loop's
lines went unseen, because each line was a token's name and one loose number.  The loop's code names the matrix and
gives the line's template (readers/looped.py), so the lines are read as that matrix, a row per outer pass.
"""

import json

import numpy as np

from mha.check import check_document

X = np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.5], [0.5, 0.0, 1.0], [1.0, 1.0, 0.0]])
S = X @ X.T / np.sqrt(3)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
WORDS = ["we", "read", "the", "page"]


def _cell(source: str, output: str = "") -> dict:
    outputs = [{"output_type": "stream", "name": "stdout", "text": output}] if output else []
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": source, "outputs": outputs}


def notebook(weights: np.ndarray) -> str:
    nested = "".join(f"{WORDS[i]}:\n" + "".join(f"   to {WORDS[j]!r}: {weights[i, j]:.3f}\n" for j in range(4))
                     for i in range(4))
    by_index = "".join(f"weight[1,{j}] = {weights[1, j]:.4f}\n" for j in range(4))
    shares = "".join(f"{WORDS[j]} {100 * weights[2, j]:.1f}\n" for j in range(4))
    cells = [
        _cell("import numpy as np\nX = np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.5], [0.5, 0.0, 1.0], [1.0, 1.0, 0.0]])"
              "\nwords = ['we', 'read', 'the', 'page']"),
        _cell("S = X @ X.T / np.sqrt(3)\nweights = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)"),
        _cell("for i, w in enumerate(words):\n    print(f'{w}:')\n    for j, a in enumerate(weights[i]):\n"
              "        print(f'   to {words[j]!r}: {a:.3f}')", nested),
        _cell("for j in range(4):\n    print(f'weight[1,{j}] = {weights[1, j]:.4f}')", by_index),
        _cell("for word, a in zip(words, weights[2]):\n    print(f'{word} {a * 100:.1f}')", shares),
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1)


def test_the_looped_lines_are_read_as_the_weights_and_hold():
    r = check_document(notebook(A), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 16 + 4, (r.n_numbers, [f.describe() for f in r.findings])


def test_a_slip_in_a_looped_line_is_found_on_its_line():
    W = A.copy()
    W[3, 1] += 0.010                          # 0.206 printed as 0.216
    r = check_document(notebook(W), fmt="ipynb")
    lines = {(f.cell, f.line) for f in r.errors}
    assert any(cell == 3 for cell, _ in lines), [f.describe() for f in r.findings]
    assert all("0.216" in f.describe() or "sum" in f.describe() for f in r.errors), [f.describe() for f in r.errors]


def test_a_slip_in_an_indexed_loop_is_found():
    W = A.copy()
    W[1, 3] += 0.0010
    r = check_document(notebook(W).replace("0.275", f"{A[1, 3]:.3f}"), fmt="ipynb")
    assert any(f.cell == 4 for f in r.errors), [f.describe() for f in r.findings]


def test_the_loops_read():
    import ast
    from mha.check.readers.looped import loop_prints
    code = ("for i, w in enumerate(words):\n    for j, a in enumerate(weights[i]):\n        print(f'{a:.2f}')\n"
            "for t, a in zip(words, weights[0]):\n    print(f'{t}: {a.item():.3f}')\n"
            "for j in range(3):\n    print(f'{A[0][j]:.2f}')\n"
            "for t, a in zip(words, weights[0]):\n    print(f'{t}: {100 * a:.1f}%')\n")
    got = [(p.name, p.nested) for p in loop_prints(ast.parse(code))]
    assert got == [("weights", True), ("weights", False), ("A", False)], got
