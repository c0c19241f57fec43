"""One query's scores stated as scalars in prose (`q1 · k1 = 30`, `q1 · k2 = 24`, `q1 · k3 = 18`) and its weights as
numbers under one name on one line ("the weights are `0.665`, `0.245` and `0.090`"): a page that prints no array is
checked from the row of scores it states."""

import pytest

from mha.check import check_document
from mha.check.readers import read_document

EN = """# Attention for one word, step by step

1. **Score**: the query of the first word against each key: `q1 · k1 = 30`, `q1 · k2 = 24`, `q1 · k3 = 18`.
2. **Scale**: with $d_k = 36$ we divide by 6: `30/6 = 5`, `24/6 = 4`, `18/6 = 3`.
3. **Softmax**: the weights are `0.665`, `0.245` and `0.090`.
4. **Sum**: the values, weighted so, are added into the output of the first word.
"""

ZH = """# 逐步计算一个词的注意力

第一步，打分：`q1 · k1 = 30`，`q1 · k2 = 24`，`q1 · k3 = 18`。

第二步，缩放：$d_k = 36$，除以 6，得到 `30/6 = 5`、`24/6 = 4`、`18/6 = 3`。

第三步，softmax 之后的权重：`0.665`、`0.245`、`0.090`。
"""


@pytest.mark.parametrize("text", [EN, ZH], ids=["en", "zh"])
def test_scalar_scores_start_the_chain_and_the_weights_hold(text):
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "starts from raw scores given" in r.configuration["mode"]
    assert "36" in r.configuration["scale"]


@pytest.mark.parametrize("text, line", [(EN, 5), (ZH, 7)], ids=["en", "zh"])
def test_a_slip_in_one_weight_is_found(text, line):
    r = check_document(text.replace("0.245", "0.254"), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_no_row_is_made_where_the_scores_are_printed_as_an_array():
    text = EN + "\nAll three scores: $e = [30, 24, 18]$.\n"
    labels = [a.label for a in read_document(text, "md").arrays]
    assert "e_1" not in labels and "q_1 K^T" not in labels


def test_scores_of_keys_far_apart_or_skipping_an_index_make_no_row():
    text = "`q1 · k1 = 30` and `q1 · k3 = 18`.\n"
    assert not read_document(text, "md").arrays


def test_the_sum_the_weights_have_is_not_one_of_them():
    text = EN.replace("the weights are `0.665`, `0.245` and `0.090`",
                      "weights that sum to 1: `0.665`, `0.245` and `0.090`")
    r = check_document(text, fmt="md")
    assert not r.errors and "starts from raw scores given" in r.configuration["mode"]
    # the three scores, the three scaled ones and the three weights, each counted once (the weights, read as a row
    # and again as numbers named by the word, are the row's)
    assert r.n_numbers >= 12
    r = check_document(text.replace("0.245", "0.254"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.254"], [f.describe() for f in r.errors]
