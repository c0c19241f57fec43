"""A caption in prose over a text block that holds one bare vector: "Suppose the scores are:" over ```` ```text
[3, 1, 0] ``` ````, then "Softmax gives:" over another block.  The captions named the vectors only over a math
display or a list, so nothing was checked on a chapter on softmax saturation (t229a).  A text block right under a
captioning paragraph takes the caption as its label, as a display does (readers/markdown.py `_captioned`; the
caption must name scores, weights or exponentials).  My own numbers."""

import math

S = [3, 1, 0]
A = [math.exp(s) / sum(math.exp(x) for x in S) for s in S]


def _page(w=None):
    w = w or ", ".join(f"{x:.2f}" for x in A)
    return "\n".join(["# Saturation", "", "Suppose the attention scores are:", "", "```text", "[3, 1, 0]", "```", "",
                      "Softmax gives:", "", "```text", f"[{w}]", "```", "", "which is still fairly smooth.", ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_captioned_blocks_are_checked_and_hold():
    r = _report(_page())
    assert r.errors == [] and r.n_numbers >= 3, (r.n_numbers, [f.describe() for f in r.errors])


def test_a_slip_in_the_weights_is_found():
    slipped = f"{A[0]:.2f}, 0.14, {A[2]:.2f}"
    errs = _report(_page(slipped)).errors
    assert [(f.line, f.printed) for f in errs] == [(12, "0.14")], [f.describe() for f in errs]
