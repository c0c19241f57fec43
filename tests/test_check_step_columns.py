"""A table with one row per key and one column per step, its headers said in shorthand: `raw q·k`, `raw / √4`,
`softmax`.

"raw" before a name of the scores (or alone) is the unscaled scores; a header that divides an earlier one (or
"raw") by a root or a number is the scaled scores, with the divisor as the written scale.  Before, the headers
named nothing, the table was one 3×3 matrix of inputs and the page was refused ("the numbers found are the inputs
only"), though it starts from scores like the pages the issue asks to check.
"""

import pytest

from mha.check import check_document
from mha.check.readers.tables import _step_headers

PAGE = """## Scaling the scores

| pair | raw q·k | raw / √4 | softmax |
|------|---------|----------|---------|
| q1·k1 | 4.0 | 2.0 | 0.6652 |
| q1·k2 | 2.0 | 1.0 | 0.2447 |
| q1·k3 | 0.0 | 0.0 | 0.0900 |

The first query therefore puts about two thirds of its attention on the first key.
"""


def test_the_step_table_is_checked_and_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 6, r.n_numbers
    assert "raw scores" in r.configuration.get("mode", ""), r.configuration
    assert "0.5" in r.configuration.get("scale", ""), r.configuration


def test_a_slipped_weight_is_found_on_its_row():
    r = check_document(PAGE.replace("| 1.0 | 0.2447 |", "| 1.0 | 0.2474 |"), fmt="md")
    assert [f.line for f in r.errors] == [6], [f.describe() for f in r.findings]


@pytest.mark.parametrize("names, expected", [
    (["raw q·k", "raw / √4", "softmax"], ["q·k", "scaled scores / √4", "softmax"]),
    (["raw", "raw ÷ 2", "weight"], ["raw scores", "scaled scores ÷ 2", "weight"]),
    (["q·k", "q·k / 8", "softmax"], ["q·k", "q·k / 8", "softmax"]),          # already a name: kept as written
    (["raw data", "value"], ["raw data", "value"]),                           # "raw" before no score: kept
    (["count / 2", "weight"], ["count / 2", "weight"]),                       # divides no earlier column: kept
])
def test_step_headers(names, expected):
    assert _step_headers(names) == expected
