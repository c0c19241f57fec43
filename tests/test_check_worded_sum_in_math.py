"""Exponentials listed with 、 and their sum said in words before an inline formula (outside trials' Traditional
Chinese notes, t259b): `$e^{0.5} \\approx 1.649$、$e^{1.5} \\approx 4.482$，總和 $= 6.131$`, then `和 $=6.131$`, and a
line that also says why a masked weight is 0 (`$e^{-\\infty} = 0$`).  The sum went unread: the full-width comma
before the word, the equals sign inside the formula, 和 as "the sum" before `=`, and the masked exponential counted
as a third entry of the row.  My own numbers: scores 0.5 and 1.5."""

from check_helpers import error_findings

_TRADITIONAL = """### 驗算

以第二列為例：$e^{{0.5}} \\approx 1.649$、$e^{{1.5}} \\approx 4.482$，總和 $= {total}$，故 $1.649 / 6.131 \\approx 0.269$；被遮罩的位置因為 $e^{{-\\infty}} = 0$，權重為 0。
"""

_SHORT = """### 逐列 softmax

- 第二列：$e^{{0.5}}=1.649$、$e^{{1.5}}=4.482$，和 $={total}$，故權重為 $[0.269,\\ 0.731]$。
"""


def test_sums_said_before_the_formula_that_hold():
    assert error_findings(_TRADITIONAL.format(total="6.131")) == []
    assert error_findings(_SHORT.format(total="6.131")) == []


def test_a_wrong_sum_said_before_the_formula_is_found():
    assert [(f.line, f.printed) for f in error_findings(_TRADITIONAL.format(total="6.731"))] == [(3, "6.731")]
    assert [(f.line, f.printed) for f in error_findings(_SHORT.format(total="6.531"))] == [(3, "6.531")]


def test_a_sum_over_a_wider_row_whose_equal_entries_were_written_once():
    # softmax([2, 0.5, 0.5]): e^2 and e^0.5 written, e^0.5 meant twice; 7.389 + 2 × 1.649 = 10.687
    page = "第一行：$e^{2} \\approx 7.389$，$e^{0.5} \\approx 1.649$，和为 $10.687$。\n"
    assert error_findings(page) == []
