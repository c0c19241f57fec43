"""A notebook whose code prints an example and whose Markdown cells then work a softmax by hand: a row of
exponentials with their sum said in words, then the weights as their shares (an outside trial's notebook,
noted in the last sessions as left).  The claims a line carries by itself were read in Markdown pages only, not
in a notebook's Markdown cells, so a wrong sum or share there went unseen.  Each Markdown cell is now read as a
small page of its own and its findings are placed in it.  My own numbers: scores (1, 0, 2)."""

import json

from check_helpers import error_findings

_CODE = ("x = np.array([[1., 0.], [0., 1.], [1., 1.]])\nS = x @ x.T / np.sqrt(2)\nA = softmax(S)\nprint(A)")
_PRINTED = "[[0.4011 0.1978 0.4011]\n [0.1978 0.4011 0.4011]\n [0.2483 0.2483 0.5035]]"

_WORKED = """## Softmax by hand

Take the scores $(1, 0, 2)$.

Exponentials $2.718, 1.000, 7.389$, sum {total}.

Weights $0.245, {w2}, 0.665$.
"""


def _nb(total="11.107", w2="0.090"):
    cells = [
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": _CODE,
         "outputs": [{"output_type": "stream", "name": "stdout", "text": _PRINTED + "\n"}]},
        {"cell_type": "markdown", "metadata": {}, "source": _WORKED.format(total=total, w2=w2)},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_worked_cell_checks_clean():
    assert error_findings(_nb(), fmt="ipynb") == []


def test_a_wrong_sum_of_exponentials_in_a_markdown_cell_is_found_there():
    found = error_findings(_nb(total="11.170"), fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in found] == [(2, 5, "11.170")]


def test_a_weight_that_is_not_its_share_in_a_markdown_cell_is_found_there():
    found = error_findings(_nb(w2="0.009"), fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in found] == [(2, 7, "0.009")]
