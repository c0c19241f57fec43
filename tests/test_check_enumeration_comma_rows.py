"""Numbers listed in code type with the ideographic enumeration comma, as Chinese prose lists them (an outside
trial's Chinese pages, t255a): scores `1、0、-1`, weights `0.665、0.245、0.090`, values `[4,0]`、`[0,4]`、`[4,4]`
(a span each) or `[4,0]、[0,4]、[4,4]` (one span).  None of them was a row, so nothing was checked and the page was
refused.  Each run is read as a bracketed row (or matrix), the text keeping its length; and "V 分别是" (V is,
respectively) names V, the copula no part of the name.  My own numbers."""

from check_helpers import error_findings

from mha.check.readers.spacedpoints import enumerated_rows

_PAGE = """举一个小例子：三个位置的分数分别为 `1、0、-1`。softmax 把它们变成约 `0.665、{w}、0.090` 的权重，总和为 1。

如果三个位置的 V 分别是 {values}，加权结果约为 `[3.02,{y}]`。
"""

_SPANS = "`[4,0]`、`[0,4]`、`[4,4]`"
_ONE_SPAN = "`[4,0]、[0,4]、[4,4]`"


def _page(w="0.245", y="1.34", values=_SPANS):
    return _PAGE.format(w=w, y=y, values=values)


def test_rows_keep_their_length():
    for t in ("`1、0、-1`", _SPANS, _ONE_SPAN):
        assert len(enumerated_rows(t)) == len(t)
    assert enumerated_rows("`1、0、-1`") == "[1,0,-1]"
    assert enumerated_rows(_ONE_SPAN) == "[[4,0],[0,4],[4,4]]"
    assert enumerated_rows("第 1、2、3 步") == "第 1、2、3 步"        # not in code type: a list of steps, as written


def test_the_example_holds():
    assert error_findings(_page()) == []
    assert error_findings(_page(values=_ONE_SPAN)) == []


def test_a_slipped_weight_is_found():
    assert [(f.line, f.printed) for f in error_findings(_page(w="0.254"))] == [(1, "0.254")]


def test_a_slipped_output_is_found():
    for values in (_SPANS, _ONE_SPAN):
        assert [(f.line, f.printed) for f in error_findings(_page(y="1.43", values=values))] == [(3, "1.43")]
