"""A size worked out over two lines of a code block (an outside trial's paged-attention chapter, t258a): the
factors with their words on the first, `= 1024 × 24 × 2 × 16 × 64 × 2 = 101 MB` under it.  The unit after the
result was looked for on the chain's first line, so 101 was judged as a count of bytes and called wrong.  The
unit is read on the result's own line.  My own numbers: 1024 tokens, 24 layers, K and V, 16 heads of 64, 2 bytes
each: 100,663,296 bytes."""

from check_helpers import error_findings

_PAGE = """## Memory of one request

```
Per request: 1024 tokens × 24 layers × 2 (K and V) × 16 heads × 64 dims × 2 bytes
           = 1024 × 24 × 2 × 16 × 64 × 2 = {size}
```
"""


def test_a_size_in_megabytes_on_the_line_under_its_factors_holds():
    assert error_findings(_PAGE.format(size="101 MB")) == []
    assert error_findings(_PAGE.format(size="96 MiB")) == []


def test_a_wrong_size_there_is_found():
    found = error_findings(_PAGE.format(size="110 MB"))
    assert [(f.line, f.printed) for f in found] == [(5, "110")]
