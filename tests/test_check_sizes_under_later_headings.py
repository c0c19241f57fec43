"""Sizes printed far below the code they might belong to.  A Chinese chapter runs an `nn.MultiheadAttention` demo on
a (2, 5, 512) batch with `print("输出形状:", out.shape)`, then moves on through five headed sections on its own
implementation, and only then shows "输出结果示例" (an example output) with sizes of a (2, 4, 8) batch from code it
prints later.  Once the code's Chinese strings were read right (readers/pyparse.py counts ast's columns in bytes),
those sizes were judged as the demo's printout: two false findings.  Sizes after a heading that does not announce
an output, or after several headings, are no printout of the last code (readers/sizeprints.py).  Right under the
code, or under a lone "输出" heading, a wrong size is still found.  My own page."""

from check_helpers import error_findings

CODE = """```python
import torch
import torch.nn as nn

x = torch.randn(2, 5, 32)
attn = nn.MultiheadAttention(embed_dim=32, num_heads=4, batch_first=True)
out, w = attn(x, x, x)
print("输出形状:", out.shape)
print("权重形状:", w.shape)
```
"""


def _page(between: str, sizes: str) -> str:
    return "# 注意力演示\n\n" + CODE + "\n" + between + "\n```\n" + sizes + "\n```\n"


def _errors(text):
    return error_findings(text, "md")


LATER = "\n".join(f"## 第 {k} 节\n\n这一节讲实现的第 {k} 步。\n" for k in range(1, 4)) + "\n### 输出结果示例\n"


def test_sizes_of_an_example_output_several_sections_later_are_not_the_demo_s():
    assert _errors(_page(LATER, "输出形状: torch.Size([2, 4, 8])\n权重形状: torch.Size([2, 4, 4])")) == []


def test_a_wrong_size_right_under_the_code_or_under_an_output_heading_is_found():
    for between in ("运行后：\n", "### 输出\n"):
        errs = _errors(_page(between, "输出形状: torch.Size([2, 5, 32])\n权重形状: torch.Size([2, 4, 5])"))
        assert [(f.printed, f.rounded) for f in errs] == [("[2, 4, 5]", "[2, 5, 5]")], between
