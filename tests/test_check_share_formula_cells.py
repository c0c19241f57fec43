"""A table whose rows each write the weight as its exponential's share of one total (`$e^2 / \\text{sum}$`) and
print it beside, as a percentage and a decimal (an outside trial's Italian lesson, t254b: three of its four
weights were not their shares, and nothing was read, the page giving no configuration).  The row's own formula
identifies the number; the rows must add up to 1 so that the total is theirs.  My own numbers: exponents 2, 1, 0."""

import json

from check_helpers import error_findings

_PAGE = """### The weights

The scaled scores are `[2.0, 1.0, 0.0]`.

| key | softmax | weight |
| :-- | :-- | :-- |
| **sun** | $e^2 / \\text{sum}$ | **{a}%** (`{b}`) |
| **rain** | $e^1 / \\text{sum}$ | **24.5%** (`0.245`) |
| **snow** | $e^0 / \\text{sum}$ | **9.0%** (`0.090`) |
| **total** | | **100%** (`1.00`) |
"""


def _page(a="66.5", b="0.665"):
    return _PAGE.replace("{a}", a).replace("{b}", b)


def test_shares_that_are_right_hold():
    assert error_findings(_page()) == []


def test_a_weight_that_is_not_its_share_is_found_on_its_row():
    found = error_findings(_page(a="64.5", b="0.645").replace("24.5%", "26.5%").replace("0.245", "0.265"))
    assert sorted((f.line, f.printed) for f in found) == [(7, "64.5%"), (8, "26.5%")]
    assert "e^2 / (e^2 + e^1 + e^0) gives 66.5%" in found[0].cause


def test_a_table_of_some_keys_only_is_not_judged():
    # the rows add up to 0.91: the total is over more keys than the table lists
    page = _page().replace("| **snow** | $e^0 / \\text{sum}$ | **9.0%** (`0.090`) |\n", "")
    assert error_findings(page) == []


def test_the_same_table_in_a_notebook_markdown_cell():
    code = {"cell_type": "code", "execution_count": 1, "metadata": {},
            "source": "x = np.array([[1., 0.], [0., 1.], [1., 1.]])\nA = softmax(x @ x.T / np.sqrt(2))\nprint(A)",
            "outputs": [{"output_type": "stream", "name": "stdout",
                         "text": "[[0.4011 0.1978 0.4011]\n [0.1978 0.4011 0.4011]\n [0.2483 0.2483 0.5035]]\n"}]}
    md = {"cell_type": "markdown", "metadata": {}, "source": _page(a="65.6", b="0.656")}
    nb = json.dumps({"cells": [code, md], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    found = error_findings(nb, fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in found] == [(2, 7, "65.6%")]


def test_one_slipped_weight_is_found_though_the_rows_no_longer_add_up():
    found = error_findings(_page(a="65.6", b="0.656"))
    assert [(f.line, f.printed) for f in found] == [(7, "65.6%")]


def test_a_table_of_some_keys_with_other_shares_is_not_judged():
    # 0.50 + 0.30 + 0.15 = 0.95 and none of them is its share of these three: another total
    page = _page(a="50.0", b="0.500").replace("24.5%", "30.0%").replace("0.245", "0.300") \
        .replace("9.0%", "15.0%").replace("0.090", "0.150")
    assert error_findings(page) == []
