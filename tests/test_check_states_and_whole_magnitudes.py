r"""Two false findings of an outside trial on pages about training and position tables (t251a).

A seq2seq page in Traditional Chinese calls its decoder's start "起始狀態：** $s_0 = h_2 = [0.363, 0.762]$" and later
writes "(此時 $s_0=[0.363, 0.762]$)" with no word for a state: s_0 was read as a row of raw scores, and an embedding
written `$e^s_2 = [0, 1]$` was then judged as their exponentials.  A page whose words call s with an index a state
(in either Chinese script, a colon and bold between) reads every such s as a state, not as scores.

`1024 * 768 ≈ 786 k`: a whole number of thousands was taken as exactly 786,000, and 786,432 was "wrong".  A whole
count with a magnitude after it stands for half a unit of that magnitude either way.  My own words and numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _seq2seq(e2="[0,\\ 1]"):
    return "\n".join([
        "## 解碼器", "",
        "來源詞的嵌入：`我` $[1, 0]$，`吃` $[0, 1]$。", "",
        f"**第 2 步：** $e^s_2 = E_s[1] = {e2}$。", "",
        "**Decoder 的起始狀態：** $s_0 = h_2 = [0.363,\\ 0.762]$。", "",
        "### $t=1$（此時 $s_0=[0.363,\\ 0.762]$）", "",
        "對來源位置 1（$h_1=[0.762,\\ 0]$）的分數是 $s_0 \\cdot h_1 = 0.277$。", ""])


def test_a_state_named_once_is_a_state_everywhere():
    from mha.check.infer.prepare import prepare
    from mha.check.readers import read_document
    objs, _ = prepare(read_document(_seq2seq(), "md"))
    at_t1 = [o for o in objs if o.a.line == line_of(_seq2seq(), "此時")]
    assert at_t1 and all(not {"S", "QKt"} & set(r.nodes) for o in at_t1 for r in o.refs)
    report = check_document(_seq2seq(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_the_dot_product_of_the_state_is_still_judged():
    page = _seq2seq().replace("= 0.277", "= 0.227")
    assert (line_of(page, "0.227"), "0.227") in error_places(page)


def _sizes(approx="786 k"):
    return f"## Sizes\n\nFor GPT-2 small the table would be `1024 * 768 ≈ {approx}`.\n"


def test_a_whole_count_of_thousands_holds_half_a_thousand_either_way():
    assert error_places(_sizes()) == []
    assert error_places(_sizes("786k")) == []


def test_a_wrong_count_of_thousands_is_found():
    page = _sizes("796 k")
    assert error_places(page) == [(line_of(page, "796"), "796 k")]
