"""A module's parameter printed under a caption that names a computed quantity:

    print("Out2: ", attn2.out_proj.weight[4:8, :])

"Out2" reads as an output (Y), so the printout was judged as the example's output, and the entries the code set
(1, -1, 0) were "wrong outputs" (four errors on an outside trial's notebook, t238c).  A printout whose printed
expression is a `.weight` or `.bias` of a module is a parameter (`readers/python.py`, `Array.parameter`); unless the
configuration takes it as an input, it is not judged as the computed quantity its caption names
(`claims/setaside.py`).  A parameter printed under a weight's own name is still judged as that weight."""

import json

from mha.check.command import slim_notebook
from mha.check.readers import read_document


def _notebook(expr):
    src = f'print("Out2: ", {expr})'
    out = "Out2:  tensor([[ 0.,  0.,  1.,  0.],\n        [ 0.,  0.,  0., -1.]])\n"
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": 1, "source": src,
              "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _arrays(expr):
    text, _ = slim_notebook(_notebook(expr))
    return read_document(text, "ipynb").arrays


def test_a_weight_printed_under_an_output_caption_is_a_parameter():
    (a,) = _arrays("attn2.out_proj.weight[4:6, :]")
    assert a.parameter and a.label == "Out2"


def test_a_computed_value_under_the_same_caption_is_not():
    (a,) = _arrays("attn_output[4:6, :]")
    assert not a.parameter
