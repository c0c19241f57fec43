"""A figure's number in a sentence over a printout (a Chinese book chapter in the held-out set, in a slip run):
"执行上述代码返回的注意力权重与图 3.10 中显示的数值一致：" over the weights.  The sentence became the label of a
scalar 3.10, judged as a weight ("printed 3.10 ... rounds to 0.13").  A figure, table, equation or section named
with its number says where, not how much: the number is blanked before reading (readers/__init__._REFERENCE).
"""

import numpy as np

from mha.check import check_document
from mha.check.readers import _REFERENCE

DOC = """# 三个词元

```python
attn_scores = torch.tensor([[0.9, 0.4, 0.1],
                            [0.4, 1.3, 0.6],
                            [0.1, 0.6, 1.1]])
attn_weights = torch.softmax(attn_scores, dim=-1)
print(attn_weights)
```

执行上述代码返回的注意力权重与图 3.10 中显示的数值一致（见表 3.2 与 Figure 3.11）：

```python
tensor([[0.4864, 0.2950, 0.2186],
        [0.2136, 0.5254, 0.2609],
        [0.1863, 0.3072, 0.5065]])
```
"""


def test_the_weights_are_what_numpy_gives():
    S = np.array([[0.9, 0.4, 0.1], [0.4, 1.3, 0.6], [0.1, 0.6, 1.1]])
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    assert np.round(A, 4).tolist() == [[0.4864, 0.2950, 0.2186], [0.2136, 0.5254, 0.2609],
                                       [0.1863, 0.3072, 0.5065]]


def test_figure_and_table_numbers_are_blanked_in_place():
    line = "与图 3.10 中一致，见表 3.2、Figure 3.11 与 Eq. (4)；列表 0.5 与代表 0.7 不是编号"
    out = _REFERENCE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), line)
    assert len(out) == len(line)
    assert "3.10" not in out and "3.2" not in out and "3.11" not in out and "(4)" not in out
    assert "0.5" in out and "0.7" in out


def test_no_number_of_a_figure_is_judged_and_a_slip_is_still_found():
    r = check_document(DOC, fmt="md")
    assert not r.errors and not any(f.printed == "3.10" for f in r.findings), [f.describe() for f in r.findings]
    r = check_document(DOC.replace("[0.2136, 0.5254", "[0.2163, 0.5254"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.2163"], [f.describe() for f in r.findings]
