r"""A page that states `d_k = 4` beside Q, K and V four wide, names no head count, and later has a section on
multi-head attention, with an illustrative table of round weights (an outside trial's Chinese cookbook, t252a).  The
search tried two heads of width 2 as well, and two heads averaged happened to fit two rows of the table: its third
row became three false findings.  A stated d_k as wide as Q leaves one head; more heads would contradict it.
My own numbers and words."""

from check_helpers import error_findings

from mha.check import check_document

_PAGE = """## 例子

```python
d_k = 4
Q = torch.tensor([[1.0, 0.0, 1.0, 0.0],
                  [0.0, 1.0, 0.0, 1.0],
                  [1.0, 1.0, 0.0, 0.0]])
K = torch.tensor([[1.0, 0.0, 0.0, 1.0],
                  [0.0, 1.0, 1.0, 0.0],
                  [1.0, 1.0, 1.0, 1.0]])
V = torch.tensor([[1.0, 2.0, 3.0, 4.0],
                  [5.0, 6.0, 7.0, 8.0],
                  [9.0, 10., 11., 12.]])
scores = Q @ K.T
print(scores)
#         [1., 1., 2.],
weights = F.softmax(scores / d_k ** 0.5, dim=-1)
```

注意力权重大致是这样：

```
         Token 0  Token 1  Token 2
Token 0 [  0.30    0.30     0.40  ]
Token 1 [  0.30    0.30     0.40  ]
Token 2 [  0.20    0.20     0.60  ]
```

## 多头注意力

把 4 维拆成两个头，每个头 2 维，各自计算后再拼接。
"""


def test_a_stated_d_k_as_wide_as_q_leaves_one_head():
    report = check_document(_PAGE, fmt="md")
    assert report.configuration["H"].startswith("H = 1")
    assert not any(e.startswith("H:") and "H = 2" in e for e in report.evidence)
    assert error_findings(_PAGE) == []
