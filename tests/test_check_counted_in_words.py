"""A size for several things whose formula sizes one of them (t273a): the sentence says "both matrices" (or 这两个矩阵)
and the formula is one matrix's bytes, `8192^2 × 4 ≈ 512 MB`.  The printed size is the two together (2 × 256 MiB),
no slip.  Without such words, or at a size no count of them gives, the line is judged as before.

My own pages."""

import pytest

from check_helpers import error_findings

_EN = """# Why the score matrix hurts

For a sequence of $N = 8192$ tokens, {who} take
$8192^2 \\times 4 \\approx {size}\\text{{MB}}$ in fp32, before a single value row is read.
"""

_ZH = """# 为什么要分块

当序列长度 $N = 8192$ 时，{who}需要 $8192^2 \\times 4 \\approx {size}\\text{{MB}}$ 的显存（按 fp32 计算）。
"""


@pytest.mark.parametrize("page, who", [(_EN, "both the scores S and the weights P"), (_EN, "the two matrices S and P"),
                                       (_ZH, "这两个矩阵")])
def test_a_size_for_the_things_the_words_count_holds(page, who):
    assert error_findings(page.format(who=who, size=512)) == []


@pytest.mark.parametrize("page, who, size", [(_EN, "both the scores S and the weights P", 700),
                                             (_EN, "the score matrix S", 512), (_ZH, "这两个矩阵", 900),
                                             (_ZH, "分数矩阵", 512)])
def test_a_size_no_count_of_them_gives_is_found(page, who, size):
    found = error_findings(page.format(who=who, size=size))
    assert [f.printed for f in found] == [str(size)]
    assert "268" in found[0].cause          # 8192² × 4 bytes: 268 MB (256 MiB)
