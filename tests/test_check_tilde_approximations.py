"""A size worked out in a code block and its result written with a tilde, `= ~171 GB per batch!` (an outside
trial's GQA notes, t254c: the product gave a tenth of that).  The tilde after `=` was read as part of a word, so
the line's result was a caption and nothing was judged.  `= ~N` is "about N": the relation is ≈ and N the number.  And a result
written with its unit on a line of its own (`= 6.7 GB`) was placed on the line where the chain starts, not on its
own.  My own numbers: 2 × 40 × 16 × 64 × 1024 × 4 × 2 bytes = 0.671 GB."""

from check_helpers import error_findings

_PAGE = """# KV cache size

A model with 40 layers, 16 heads of 64 dims, a context of 1024 tokens and a batch of 4, in FP16:

```
KV cache bytes:
= 2 × 40 × 16 × 64 × 1024 × 4 × 2
= ~{size} per batch
```
"""


def test_an_approximate_size_that_holds():
    assert error_findings(_PAGE.format(size="0.67 GB")) == []
    assert error_findings(_PAGE.format(size="671 MB")) == []


def test_an_approximate_size_that_is_off_is_found():
    found = error_findings(_PAGE.format(size="6.7 GB"))
    assert [(f.line, f.printed) for f in found] == [(8, "6.7")]
