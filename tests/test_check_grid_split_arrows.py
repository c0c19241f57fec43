r"""A grid of tokens cut into windows, written `$64 \times 64 \rightarrow 64$ windows of $8 \times 8$` (an outside
trial's Italian notes on a windowed audio transformer, t257a, on the session's final checker): the arrow was read as
an equality, and each line became "64 × 64 gives 4096".  A product of whole sizes, an arrow, and a smaller whole
number is a grid split into that many pieces; `8 \times 8 = 46` is still a slip.  My own numbers."""

from check_helpers import error_findings

_PAGE = r"""## Windows of the spectrogram

- Stage 1: $32 \times 32 \rightarrow 16$ windows of $8 \times 8$, each window holding $8 \times 8 = {tokens}$ tokens
- Stage 2: $16 \times 16 \rightarrow 4$ windows of $8 \times 8$
- Stage 3: $8 \times 8 \rightarrow 1$ window of $8 \times 8$
"""


def test_a_grid_split_into_windows_is_no_equality():
    assert error_findings(_PAGE.replace("{tokens}", "64")) == []


def test_a_product_written_with_equals_is_still_judged():
    assert [(f.line, f.printed) for f in error_findings(_PAGE.replace("{tokens}", "46"))] == [(3, "46")]
