"""A matrix drawn down the lines of a code block, each row followed by a remark in words after a run of spaces, no
`#` before it (an outside trial's Japanese chapter, t255c: `[0.8, 2.1, 4.0, -∞],   位置2は0,1,2のみ参照`).  The
remark made the rows unreadable, so neither the scores nor their softmax was read.  Words a run of spaces after a
row's closing bracket are a remark on that row, as they are in a comment.  My own numbers."""

from check_helpers import error_findings

_PAGE = """## Two queries

```
scores:
  [[2.1,  4.5],   the first query looks at both keys
   [1.2,  3.4]]   so does the second

softmax, row by row:
  [[0.08, 0.92],   mostly the second key
   [0.10, {w}]]   the same, a little less
```
"""


def test_the_rows_are_read_and_hold():
    assert error_findings(_PAGE.replace("{w}", "0.90")) == []


def test_a_slipped_weight_under_its_remark_is_found():
    found = error_findings(_PAGE.replace("{w}", "0.80"))
    assert [(f.line, f.printed) for f in found] == [(10, "0.80")]
