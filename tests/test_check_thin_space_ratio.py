"""A ratio of two numbers grouped by TeX thin spaces, with thin spaces around the slash as well:
`16\\,384\\,/\\,4\\,096 = 4`.  The divisor's first group followed `\\,`, whose comma stopped it from starting a
number, so 4 and 096 were read apart and the ratio became (16384/4)·96, a false arithmetic slip (t206d, a
Portuguese exam on KV-cache sizes)."""

from check_helpers import error_places, line_of

PAGE = r"""\documentclass{{article}}
\begin{{document}}
\section*{{Cache entries per token}}
Keys and values, $n_{{kv}} = 4$ heads of size $128$ in $8$ layers:
\[ 2 \times 4 \times 128 \times 8 = 8\,192. \]
With one key-value head per query head, $n_{{kv}} = 16$:
\[ 2 \times 16 \times 128 \times 8 = 32\,768. \]
Ratio: $32\,768\,/\,8\,192 = {ratio}$, four times the memory.
\end{{document}}
"""


def test_a_ratio_with_thin_spaces_round_the_slash_is_read_as_one_quotient():
    assert error_places(PAGE.format(ratio="4"), fmt="tex") == []


def test_a_wrong_ratio_written_so_is_still_found():
    text = PAGE.format(ratio="5")
    assert error_places(text, fmt="tex") == [(line_of(text, "Ratio:"), "5")]
