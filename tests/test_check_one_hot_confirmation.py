"""A guessed X "borne out" by a printout that holds for any X: a saturated, one-hot row of weights.

Outside trial t146c: a notebook printed `Q, K, V` as one tuple (no X, no weights), the full 16×16 weights, nearly
one-hot, and `np.round(attention_weights[i], 4)`, one-hot too.  With X guessed as the tuple's first matrix and
W = I, softmax(Q Qᵀ) is one-hot on its diagonal, so that row "held in full", lifted the guard on the guess, and every
weight that differed from the guess's became a finding (42 of them, none true).  A printout whose entries are all
0 or 1 bears no guess out (claims/guessed._informative).
"""

import json

import numpy as np

from mha.check import check_document


def notebook(n: int = 16, d: int = 16, seed: int = 2, row: bool = True) -> str:
    rng = np.random.default_rng(seed)
    Q, K, V = (np.round(s * rng.normal(size=(n, d)), 4) for s in (3, 3, 1))
    S = Q @ K.T
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    G = Q @ Q.T
    B = np.exp(G - G.max(axis=1, keepdims=True))
    B /= B.sum(axis=1, keepdims=True)
    # a query whose weights are one-hot on a key j whose own row of softmax(Q Qᵀ) is one-hot on its diagonal
    i = next(i for i in range(n) if A[i].max() > 0.99995 and B[A[i].argmax()].max() > 0.99995 and A[i].argmax() != i)
    np.set_printoptions(precision=8)

    def cell(source: str, shown: str) -> dict:
        return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": source,
                "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                             "data": {"text/plain": shown}}]}
    cells = [cell("Q, K, V = project(hidden)\nQ, K, V", repr((Q, K, V))),
             cell("scores = Q @ K.T\nattention_weights = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)"
                  "\nattention_weights", repr(A))]
    if row:
        cells.append(cell("i = tokens.index('it')\nnp.round(attention_weights[i], 4)", repr(np.round(A[i], 4))))
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_one_hot_row_bears_no_guess_out():
    r = check_document(notebook(), fmt="ipynb")
    assert not r.errors, (len(r.errors), [f.describe() for f in r.errors[:3]])


def test_without_the_row_the_guess_is_set_aside_as_before():
    r = check_document(notebook(row=False), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors[:3]]
