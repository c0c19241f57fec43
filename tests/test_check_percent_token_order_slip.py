"""Percentages that name tokens in their own order (largest first), one of them wrong.

Outside trial t142e (a planted slip): "39% to dog, 26% to big, 17% to itself, 16% to The" under weights printed
in column order [0.16, 0.26, 0.39, 0.19].  With 17% for 19% the list was no longer exactly the row's weights
reordered, so it was read in column order (26% agreeing by chance with column 2), and the two right percentages
on either side of the slip were called wrong.  A list that is the row's weights reordered but for one entry names
tokens, not columns, and is not read by position (claims/percentquote.py).
"""

from mha.check import check_document

PAGE = """# One query, four keys

The words are "my", "old", "red", "car"; the query is "car".

```
Scores:  [0.3, 0.8, 1.2, 0.5]
Weights: [0.16, 0.26, 0.39, 0.19]
```

Read as shares:
- "car" gives 39% of its attention to "red"
- 26% to "old"
- 19% to itself
- 16% to "my"
"""


def test_the_reordered_shares_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_one_wrong_share_in_token_order_calls_no_right_one_wrong():
    r = check_document(PAGE.replace("- 19% to itself", "- 17% to itself"), fmt="md")
    assert not any(f.line in (11, 12, 14) for f in r.errors), [f.describe() for f in r.errors]


def test_a_wrong_share_in_column_order_is_still_found():
    page = PAGE.split("Read as shares:")[0] + ("Read as shares:\n- 16% to \"my\"\n- 26% to \"old\"\n- 39% to \"red\"\n"
                                               "- 17% to itself\n")
    r = check_document(page, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "17%")], [f.describe() for f in r.findings]
