"""A pandas DataFrame wider than the terminal, printed in two blocks of columns (the first header ends in a
backslash, the second block repeats the row labels):

               we  saw   the  \\
    we      1.000 0.000 0.000
    ...
              red   car
    we      0.000 0.000

Each block was read as a matrix of its own, and the row-sum rule added up a row of the first block only: "sums to
0.929" on right weights (an outside trial's notebook, t237c); on this page the blocks matched nothing.  The blocks are joined into the one frame they print
(`readers/frames.py`), whose rows do sum to 1, and a slip in the second block is a row that does not.  My own
weights (a causal softmax of my own scores), printed as pandas prints them."""

import json

import numpy as np

from check_helpers import error_findings
from mha.check import check_document
from mha.check.readers.frames import unwrap_frames

TOKENS = ["we", "saw", "the", "red", "car"]
S = np.array([[0.9, 0.0, 0.0, 0.0, 0.0], [0.2, 1.1, 0.0, 0.0, 0.0], [0.4, 0.3, 0.8, 0.0, 0.0],
              [0.1, 0.6, 0.2, 1.0, 0.0], [1.5, 1.2, 1.4, -1.5, -1.2]])


def _weights():
    z = np.where(np.tril(np.ones((5, 5))) > 0, S, -np.inf)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _frame(A):
    """pandas' wrapped print of A with my tokens: the first three columns, then the last two."""
    def block(cols, wrapped):
        head = " " * 6 + "".join(f"{TOKENS[c]:>7}" for c in cols) + ("  \\" if wrapped else "")
        return [head] + [f"{t:<6}" + "".join(f"{A[r, c]:7.3f}" for c in cols) + ("  " if wrapped else "")
                         for r, t in enumerate(TOKENS)]
    return "\n".join(block([0, 1, 2], True) + [""] + block([3, 4], False)) + "\n"


def _notebook(A):
    rows = ",\n       ".join("[" + ", ".join(f"{x:4.1f}" for x in r) + "]" for r in S)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Causal weights of five tokens"},
             {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "print('scores:', scores)",
              "outputs": [{"output_type": "stream", "name": "stdout", "text": f"scores: [{rows}]\n"}]},
             {"cell_type": "code", "metadata": {}, "execution_count": 2, "source": "print(df_A.round(3))",
              "outputs": [{"output_type": "stream", "name": "stdout", "text": "Attention weights:\n" + _frame(A)}]}]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_blocks_are_joined_line_for_line():
    text = _frame(_weights())
    joined = unwrap_frames(text)
    assert len(joined.split("\n")) == len(text.split("\n"))
    rows = [line.split() for line in joined.split("\n")[1:6]]
    assert [r[0] for r in rows] == TOKENS and all(len(r) == 6 for r in rows)
    assert all(abs(sum(float(x) for x in r[1:]) - 1) < 0.003 for r in rows)


def test_right_weights_in_a_wrapped_frame_are_checked_whole_and_hold():
    r = check_document(_notebook(_weights()), fmt="ipynb")
    assert r.ok, [f.message for f in r.errors]
    assert r.n_numbers >= 25          # all five rows of five weights (before: the blocks matched nothing)


def test_a_slip_in_the_second_block_is_found():
    A = _weights()
    A[4, 3] += 0.1
    errs = error_findings(_notebook(A), fmt="ipynb")
    assert errs and all(f.cell == 3 for f in errs), [f.message for f in errs]
