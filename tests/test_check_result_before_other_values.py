r"""A worked line whose result is followed by the step's other values, `e^1.414 / (e^1.414 + 1) = 0.804,   0.196`
(the second weight of a pair, an outside trial's review slides, t247a).  The part after "=" was read as a label
of two numbers, so the line had no result to judge and a slip in 0.804 went unreported.  The first number after
the arithmetic is its result; numbers after a comma are the step's other values, not part of it.  My own numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(first="0.731", scale_line="2 / 2 = 1,   0"):
    return "\n".join([
        "## A pair of keys", "",
        "One query (1, 1) and two keys; the scores are 2 and 0, and d = 4.", "",
        "```text",
        f"   scaled:    {scale_line}",
        f"   softmax:   e^1 / (e^1 + 1) = {first},   0.269",
        "```", ""])


def test_the_worked_pair_checks_clean():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 2


def test_a_slipped_result_before_the_other_value_is_found():
    page = _page(first="0.713")
    assert error_places(page) == [(line_of(page, "0.713"), "0.713")]


def test_a_slipped_quotient_before_a_zero_is_found():
    page = _page(scale_line="2 / 2 = 1.5,   0")
    assert error_places(page) == [(line_of(page, "1.5,"), "1.5")]


def test_a_list_that_is_not_numbers_alone_stays_words():
    page = _page(scale_line="2 / 2 = 1.5, 0 and so on")
    assert (line_of(page, "1.5,"), "1.5") not in error_places(page)


def test_a_result_grouped_in_thousands_is_one_number():
    page = "## Parameters\n\n```\nW_Q: h × (d × d_k) = 12 × (768 × 64) = 589,824\nW_O: d × d = 768 × 768 = 589,824\n```\n"
    assert error_places(page) == []
    html = ('<html><body><div class="code"><span class="k">W_Q:</span> h \u00d7 (d \u00d7 d_k) = 12 \u00d7 '
            '(768 \u00d7 64) = <span class="n">589,824</span>\n</div></body></html>\n')
    assert error_places(html, fmt="html") == []
