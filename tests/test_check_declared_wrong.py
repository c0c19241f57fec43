"""Values the page itself calls wrong (t221c, a Chinese exercise on a mask bug: "错误权重 `[1/3,1/3,0]`, ... 正确权重
`[1/2,1/2,0]`").  The buggy weights, shown for contrast, were judged against the configuration: a false finding.  A
name that says its values are wrong makes them no claim (claims/array.py `DECLARED_WRONG`)."""

import pytest

from check_helpers import error_places

PAGE = """# A mask bug

The scores of one query are `[0, 0, 0]`; the third key must be masked.  A buggy version takes the softmax first and
then zeroes the third weight without renormalising.

**Answer:** {name} `[1/3, 1/3, 0]`, which sum to 2/3; masking first gives `[1/2, 1/2, 0]`.
"""


@pytest.mark.parametrize("name", ["wrong weights", "the buggy weights", "错误权重"])
def test_weights_called_wrong_are_no_claim(name):
    assert error_places(PAGE.format(name=name)) == []


def test_weights_not_called_wrong_are_judged():
    assert error_places(PAGE.format(name="the weights")) != []
