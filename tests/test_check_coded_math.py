r"""Inline math wrapped in a code span (outside trial t165b, a Chinese Hugo post): `` `$e^{0.58} \approx 1.79$` ``,
the habit of blogdown and Hugo pages that keep Markdown away from TeX.  The page renders each as math, but the spans
were read as code and skipped, 98 of them on that page, so a slipped weight there passed.  A code span holding one
piece of inline math with a number in it is read as that math now (readers/markdown.py).  My own lines; the numbers
are plain arithmetic."""

import math

import pytest

from mha.check import check_document

LINES = r"""# 第一行的 softmax

分数 (已缩放) 为 0.50 和 1.50：

* `$e^{0.50} \approx 1.65$`
* `$e^{1.50} \approx 4.48$`
* 对自己的权重: `$1.65 / 6.13 \approx 0.27$`
* 对另一个词的权重: `$4.48 / 6.13 \approx 0.73$`

Code such as `x = 3` stays code.
"""


def test_the_numbers_are_right():
    assert round(math.exp(0.5), 2) == 1.65 and round(math.exp(1.5), 2) == 4.48
    assert round(1.65 / 6.13, 2) == 0.27 and round(4.48 / 6.13, 2) == 0.73


def test_the_coded_math_is_read_and_holds():
    r = check_document(LINES, fmt="md")
    assert not r.errors and r.n_claims >= 4, [f.describe() for f in r.findings]


@pytest.mark.parametrize("right, wrong, line", [
    (r"\approx 1.65$", r"\approx 1.75$", 5),
    (r"\approx 0.73$", r"\approx 0.83$", 8),
])
def test_a_slip_in_coded_math_is_found(right, wrong, line):
    r = check_document(LINES.replace(right, wrong), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
