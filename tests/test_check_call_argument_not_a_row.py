"""Two statements on consecutive lines of a plain code block whose brackets happen to stand in the same columns:

    logits = K · [0.4, -0.2] = [1.5, 0.5]
    α = softmax([1.5, 0.5]) = [0.73, 0.27]

were read as the rows of one drawn 2×2 matrix, so the written softmax was lost and a wrong one went unfound (notes
on attention over residual blocks, t229a: `softmax([2.0, 0.8]) = [0.84, 0.16]`).  A bracket inside an open call is
an argument, never a row of a drawn matrix (readers/drawn.py `_opened`).  My own numbers."""

import math

W = [math.exp(1.5) / (math.exp(1.5) + math.exp(0.5)), math.exp(0.5) / (math.exp(1.5) + math.exp(0.5))]


def _page(w=f"[{W[0]:.2f}, {W[1]:.2f}]"):
    return "\n".join(["# Mixing two blocks", "", "```", "logits = K · [0.4, -0.2] = [1.5, 0.5]",
                      f"α = softmax([1.5, 0.5]) = {w}  # more weight on the first block", "```", ""])


def _errors(text):
    from mha.check import check_document
    return check_document(text, fmt="md").errors


def test_the_written_softmax_is_read_and_holds():
    from mha.check.readers import read_document
    arrays = read_document(_page(), "md").arrays
    assert [[n.text for n in a.numbers] for a in arrays if a.place.line == 5] == [["1.5", "0.5"], ["0.73", "0.27"]]
    assert _errors(_page()) == []


def test_a_wrong_softmax_is_found():
    errs = _errors(_page("[0.78, 0.22]"))
    assert sorted(f.printed for f in errs) == ["0.22", "0.78"], [f.describe() for f in errs]
