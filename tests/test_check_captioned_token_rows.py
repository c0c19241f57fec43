"""Q and K written as rows named by their tokens (`猫:  [1.0, 0.0, 1.0, 0.0]`) under a caption that names the matrix
(`Q矩阵（每个词的查询向量）：`), in one code block.

Outside trial t141a: the caption was lost, because each row's token name (the first one, `猫`) was taken as the
matrix's name; Q was then taken for X with weights assumed, K was "unlabelled", and nothing after them was checked.
A caption that names a quantity, over rows named by tokens, names the matrix (readers/statements.py).
"""

from mha.check import check_document

PAGE = """# 自注意力的一个小例子

句子是“猫 坐 下”。

```
Q矩阵（每个词的查询向量）：
猫:  [1.0, 0.0, 1.0, 0.0]
坐:  [0.0, 1.0, 0.0, 1.0]
下:  [1.0, 1.0, 0.0, 0.0]

K矩阵（每个词的键向量）：
猫:  [1.0, 1.0, 0.0, 0.0]
坐:  [0.0, 0.0, 1.0, 1.0]
下:  [1.0, 0.0, 0.0, 1.0]
```

第一步，点积得分 QK^T：

```
      猫    坐    下
猫   1.0   1.0   1.0
坐   1.0   1.0   1.0
下   2.0   0.0   1.0
```

第二步，除以 √4 = 2：

```
      猫    坐    下
猫   0.5   0.5   0.5
坐   0.5   0.5   0.5
下   1.0   0.0   0.5
```
"""


def test_the_captions_name_q_and_k_and_the_tables_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.configuration["mode"].startswith("starts from Q, K, V given (Q at line 7; K at line 12"), r.configuration
    assert r.n_numbers >= 18, r.n_numbers


def test_slips_in_the_tables_are_found_on_their_lines():
    lines = PAGE.split("\n")
    scaled = "\n".join(x.replace("1.0   0.0   0.5", "1.0   0.0   0.6") if k == 31 else x for k, x in enumerate(lines))
    scored = "\n".join(x.replace("1.0   1.0   1.0", "1.0   2.0   1.0") if k == 21 else x for k, x in enumerate(lines))
    assert [f.line for f in check_document(scaled, fmt="md").errors] == [32]
    assert [f.line for f in check_document(scored, fmt="md").errors] == [22]
