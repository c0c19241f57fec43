"""A sentence ending in a colon over a text block of `name：value` lines, one per key:

    假设某个查询对三个位置算出的分数是：
    ```text
    与位置 1 的匹配分数：1.2
    ...

Last look t145d (a planted slip missed): the three lines were three loose labelled numbers, no row of scores, so the
weights after them could not be checked.  Under a caption naming the quantity they are its row
(readers/markdown._captioned_items, as a bulleted list under it already was).
"""

from mha.check import check_document

PAGE = """# 一个查询

假设某个查询对三个位置算出的分数是：

```text
与位置 1 的匹配分数：1.2
与位置 2 的匹配分数：0.2
与位置 3 的匹配分数：2.0
```

softmax 之后：

```text
注意力权重：[0.28, 0.10, 0.62]
```
"""


def test_the_listed_scores_start_the_chain():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.configuration["mode"].startswith("starts from raw scores given (1×3 at line 6)"), r.configuration


def test_a_slip_in_the_weights_is_found():
    r = check_document(PAGE.replace("0.10, 0.62", "0.10, 0.72"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.72")], [f.describe() for f in r.findings]


def test_lines_that_are_not_all_items_are_not_a_row():
    page = PAGE.replace("与位置 3 的匹配分数：2.0", "与位置 3 的匹配分数 = 1.2 + 0.8 = 2.0")
    r = check_document(page.replace("0.10, 0.62", "0.10, 0.72"), fmt="md")
    assert not any(f.line == 14 for f in r.errors), [f.describe() for f in r.errors]
