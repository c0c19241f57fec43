"""A book's notebook translated with notes: the scores printed in one code cell, four markdown cells of notes, then
`w_tmp = s / s.sum()` and `print("Attention weights:", w_tmp)`.  The formula was looked for only under the caption's
words ("Attention weights"), not under the name the print shows, and only three cells back, so the weights were
"not checked" and a slip in them unfound (six translations of the same chapter in t231c).  The printout is found
by its code name too, six cells back (claims/formula.py), and, judged against its operand, is no longer listed as
not checked.  My own numbers."""

import json

import numpy as np

from check_helpers import error_findings

S = np.array([0.8213, 1.3107, 1.2741, 0.6412, 0.5539, 0.9706])


def _nb(w=None):
    w = S / S.sum() if w is None else w
    cells = [{"cell_type": "code", "execution_count": 1, "metadata": {},
              "source": "scores = inputs @ query\nprint(scores)",
              "outputs": [{"output_type": "stream", "name": "stdout",
                           "text": "tensor([" + ", ".join(f"{v:.4f}" for v in S) + "])\n"}]}]
    cells += [{"cell_type": "markdown", "metadata": {}, "source": f"- 注释 {k}：先用最简单的办法把分数归一化。"}
              for k in range(1, 5)]
    cells.append({"cell_type": "code", "execution_count": 2, "metadata": {},
                  "source": "w_tmp = scores / scores.sum()\nprint(\"Attention weights:\", w_tmp)",
                  "outputs": [{"output_type": "stream", "name": "stdout", "text": "Attention weights: tensor(["
                               + ", ".join(f"{v:.4f}" for v in w) + "])\n"}]})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_normalised_weights_hold():
    from mha.check import check_document
    r = check_document(_nb(), fmt="ipynb")
    assert r.errors == [] and not [n for n in r.not_checked if n.what.startswith("Attention weights")]


def test_a_slip_in_them_is_found():
    w = S / S.sum()
    w[2] += 0.002
    assert [f.printed for f in error_findings(_nb(w), "ipynb")] == [f"{w[2]:.4f}"]
