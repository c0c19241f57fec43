"""A softmax shown by example under the formula that names it, in a text block:

    公式：softmax(x_i) = exp(x_i) / Σexp(x_j)
    例子：
    输入：[0, 0.5, 1.0]
    输出：[0.19, 0.31, 0.51]（加起来 = 1）

The output was not read (the remark in full-width parentheses holds an "=", which split the line), and the input was
taken as an input X; a slip in the output was missed (an outside trial's page, t234b).  A remark in parentheses
right after a row is no part of it (`readers/drawn.py`, `_ROW_REMARK`), and an output under its input a line apart,
the softmax named just above, is that softmax (`readers/softmaxdrawn.py`, `tie_softmax_example`): judged against
its own input, and no evidence (nor a query) for the page's configuration.  My own numbers."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document

X = [0.0, 0.5, 1.0]


def _page(out=None, words=("公式", "例子", "输入", "输出", "加起来")):
    e = np.exp(X)
    out = out or ", ".join(f"{x:.2f}" for x in e / e.sum())
    f, ex, i, o, s = words
    return "\n".join(["# Softmax", "", "```", f"{f}：softmax(x_i) = exp(x_i) / Σexp(x_j)", "", f"{ex}：",
                      f"{i}：[0, 0.5, 1.0]", f"{o}：[{out}]（{s} = 1）", "```", ""])


def test_the_example_is_checked_against_its_input():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert r.n_numbers >= 3


def test_a_slipped_output_is_found_in_chinese_and_in_english():
    for words in (("公式", "例子", "输入", "输出", "加起来"), ("Formula", "Example", "Input", "Output", "sum")):
        page = _page("0.19, 0.31, 0.53", words)
        errs = error_findings(page)
        assert [(f.line, f.printed) for f in errs] == [(line_of(page, f"{words[3]}："), "0.53")], \
            [f.message for f in errs]
