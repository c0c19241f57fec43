"""A plain-text table whose rows are named with an index ("query 0   1   4   3" under "key 0   key 1   key 2", t219b,
notes on a CUDA attention kernel).  The row's index was read as its first number, so a 3×3 table became 3×4 and
matched nothing.  Such names are read whole (readers/drawn.py `indexed_names`); a name without the column header
above it is left as it was."""

from check_helpers import md_document

TABLE = """# Scores

```text
{head}
query 0        1.5     0.5     2.0
query 1        0.0     1.0     3.0
query 2        2.5     1.0     0.5
```
"""


def _arrays(text):
    return [[n.text for n in a.numbers] for a in md_document(text).arrays]


def test_an_indexed_row_name_is_no_number():
    got = _arrays(TABLE.format(head="             key 0   key 1   key 2"))
    assert got == [["1.5", "0.5", "2.0", "0.0", "1.0", "3.0", "2.5", "1.0", "0.5"]]


def test_without_the_indexed_header_nothing_changes():
    got = _arrays(TABLE.format(head="             a       b       c"))
    assert len(got) == 1 and got[0][0] == "0" and len(got[0]) == 12
