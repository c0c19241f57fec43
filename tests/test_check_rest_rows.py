"""A score and weight table closed by a row for the rest of the sentence in words: `| others | weak | near 0 |`.

Outside trial t191e (a Chinese article): that one row made the whole table unreadable, so a slipped weight in it
went unreported.  A last row named for the other tokens, with no number after its name, stands for no token
(readers/tables.py `_REST_ROW`).
"""

from check_helpers import error_places

# softmax([3.2, 1.1, 1.1]) = [0.8033, 0.0984, 0.0984]
PAGE = """# What "it" attends to

| token | cue | score | weight |
|---|---|---|---|
| animal | the subject | 3.2 | 0.80 |
| street | a place | 1.1 | 0.10 |
| it | itself | 1.1 | 0.10 |
| others | weak | near 0 | near 0 |
"""



def test_the_table_holds():
    assert error_places(PAGE) == []


def test_a_slipped_weight_in_it_is_found():
    assert error_places(PAGE.replace("| 3.2 | 0.80 |", "| 3.2 | 0.90 |")) == [(5, "0.90")]
