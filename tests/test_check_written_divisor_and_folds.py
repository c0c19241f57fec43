"""Two ways authors write numbers beside the arithmetic, each once taken for a claim it is not.

Outside trial t190a: a table under "## Scale by √d_k (÷1.414)" divides by the rounded 1.414, and 1.47/1.414 rounds
to 1.040 where 1.47/√2 rounds to 1.039; the cells where the two part were errors.  The divisor written after ÷ is
a scale the page states (readers/builder.py), so those cells hold under a reading as good as 1/√2 (where the
table is read against 1/√2 itself, they are the rounding of a rounding, half up as a person rounds: notes).

Outside trial t190e: "Projections dominate by $\\sim 40\\times$" after a line ending "≈ 6.9 × 10^{10}" was read as
that total, approximately 40.  An inline span that starts with ~ after words of its own is those words' value, not
the formula's before it (readers/markdown.py).
"""

from check_helpers import error_places

SCALED = """# Scores of three tokens

## Q and K (d_k = 2)

| Token | Q | K |
|---|---|---|
| the | [0.7, 0.1] | [0.4, 0.8] |
| cat | [0.0, 0.7] | [1.4, 1.3] |
| sat | [0.1, 0.7] | [0.7, 0.3] |

## Raw scores (QKᵀ)

| Q\\K | the | cat | sat |
|---|---|---|---|
| the | 0.36 | 1.11 | 0.52 |
| cat | 0.56 | 0.91 | 0.21 |
| sat | 0.60 | 1.05 | 0.28 |

## Scale by √d_k (÷1.414)

The scaled scores S:

| Q\\K | the | cat | sat |
|---|---|---|---|
| the | 0.255 | 0.785 | 0.368 |
| cat | 0.396 | 0.644 | 0.149 |
| sat | 0.424 | 0.743 | 0.198 |
"""

FOLD = """# Costs

Attention core FLOPs: $4 \\times 2048^2 \\times 4096 \\approx 6.9 \\times 10^{10}$.

Projections dominate by $\\sim 4\\times$.
"""



def test_cells_divided_by_the_written_rounded_root_are_no_errors():
    assert error_places(SCALED) == []


def test_a_fold_after_words_is_no_value_of_the_formula_before():
    assert error_places(FOLD) == []
