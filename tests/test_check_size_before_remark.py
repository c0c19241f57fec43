"""A KV-cache size whose unit is followed by a remark (outside trials' Chinese notes, t261c):
`2 × 32 × 8 × 128 × 8192 × 2 ≈ 1.07 GB（比模型权重小）` and `= 1.07 GB (one 8K sequence)`.  A number followed by a
unit of bytes and then words was not taken for the result of the arithmetic before it, so two sizes off by a
factor of two and of eighty went unjudged (a bare `≈ 84 GB` at the end of the line was judged).  The unit is read
with the number; the words after it are a remark.  My own numbers: 32 layers, 8 KV heads of 128, 8192 tokens, FP16:
1,073,741,824 bytes."""

from check_helpers import error_findings

_PAGE = """## KV cache of one sequence

```
例：32 层、8 个 KV 头、每头 128 维、8192 tokens、FP16：
2 × 32 × 8 × 128 × 8192 × 2 ≈ {size}（比模型权重小）
```

```
= 2 × 32 × 8 × 128 × 8192 × 2 bytes
= {again} (one 8K sequence)
```
"""


def test_sizes_with_a_remark_after_the_unit_hold():
    assert error_findings(_PAGE.format(size="1.07 GB", again="1 GiB")) == []


def test_wrong_sizes_with_a_remark_after_the_unit_are_found():
    found = error_findings(_PAGE.format(size="2.1 GB", again="1 GiB"))
    assert [(f.line, f.printed) for f in found] == [(5, "2.1")]
    found = error_findings(_PAGE.format(size="1.07 GB", again="0.5 GB"))
    assert [(f.line, f.printed) for f in found] == [(10, "0.5")]
