"""Scores printed in one notebook cell, printed again after the causal mask in a later cell, and the weights in a
third, from an outside trial's slipped copy (t240c).  A slip in the masked reprint set that reprint aside, and the
weights, computed (rightly) from the scores of the first cell, were reported wrong as "the softmax of the scores
printed" in the reprint: three false findings on a right row.  Weights that the configuration identifies and holds
are no longer blamed for disagreeing with a row printed before them (`claims/printchain.py`).  My own numbers."""

import nbformat

from mha.check import check_document



def _cell(source, text=None):
    c = nbformat.v4.new_code_cell(source)
    if text is not None:
        c.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": text}, execution_count=1)]
    return c


def _notebook(masked_row3="[ 1.9300,  0.2700,  2.6500,    -inf]"):
    rows = ["[[[ 0.5200, -1.3100,  0.0800,  1.7700]", "[ 2.4100,  0.3600, -0.9200,  0.1500]",
            "[ 1.9300,  0.2700,  2.6500, -0.4400]", "[ 0.6100, -1.0800,  2.2300, -4.2500]]]"]
    masked = ["[[[ 0.5200,    -inf,    -inf,    -inf]", "[ 2.4100,  0.3600,    -inf,    -inf]", masked_row3,
              "[ 0.6100, -1.0800,  2.2300, -4.2500]]]"]
    weights = ["[[[1.0000e+00, 0.0000e+00, 0.0000e+00, 0.0000e+00]", "[8.8595e-01, 1.1405e-01, 0.0000e+00, 0.0000e+00]",
               "[3.0821e-01, 5.8602e-02, 6.3319e-01, 0.0000e+00]", "[1.6012e-01, 2.9545e-02, 8.0910e-01, 1.2410e-03]]]"]
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Causal attention on given scores"),
        _cell("scores = torch.tensor([[[0.52, -1.31, 0.08, 1.77], [2.41, 0.36, -0.92, 0.15],\n"
              "                        [1.93, 0.27, 2.65, -0.44], [0.61, -1.08, 2.23, -4.25]]])"),
        _cell("scores", "tensor(" + ",\n         ".join(rows) + ")"),
        _cell("mask = torch.tril(torch.ones(4, 4))\nscores = scores.masked_fill(mask == 0, float('-inf'))"),
        _cell("scores", "tensor(" + ",\n         ".join(masked) + ")"),
        _cell("attn = torch.softmax(scores, dim=-1)"),
        _cell("attn", "tensor(" + ",\n         ".join(weights) + ")"),
    ]
    return nbformat.writes(nb)


def _errors(text):
    return [f for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]

def test_the_clean_notebook_holds():
    assert _errors(_notebook()) == []

def test_right_weights_are_not_blamed_for_a_slipped_reprint():
    errs = _errors(_notebook("[ 1.9300,  0.2400,  2.6500,    -inf]"))
    assert all(f.cell != 7 for f in errs), [f.message() for f in errs]
