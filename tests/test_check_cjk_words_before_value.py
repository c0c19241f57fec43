"""An item of a list whose value is named by two Chinese characters before its inline math: `- 总和 $\\approx 156$`
under `- $e^{0} = 1$`.  Two characters were no word to the reader, so the "≈" went on with the formula of the item
above, and the sum was judged as e⁰ ≈ 156 (t207d, an Obsidian note on softmax).  A connective (所以, 约为) still
goes on with the formula before it."""

import math

from check_helpers import error_places, line_of


def page(total: str, label: str = "总和") -> str:
    return f"""# 指数与权重

分数为 `[4, 1, 0]`。

- $e^{{4}} \\approx 54.6$
- $e^{{1}} \\approx 2.72$
- $e^{{0}} = 1$
- {label} $\\approx {total}$
"""


def test_a_total_named_in_chinese_is_not_read_as_the_item_above_it():
    total = f"{math.exp(4) + math.exp(1) + 1:.1f}"
    assert error_places(page(total)) == []
    assert error_places(page(total, label="合计")) == []


def test_a_connective_still_continues_the_formula_above():
    text = page("3", label="所以")                 # "so ≈ 3": e⁰ = 1 ≈ 3 is a slip of that line
    assert error_places(text) == [(line_of(text, "所以"), "3")]
