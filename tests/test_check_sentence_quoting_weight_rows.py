"""A sentence that checks a row of K by hand and quotes the rows of W_K it adds: "`x₀ = [1, 0, 1]` picks rows 0 and
2 of `W_K`, which are `[0, 1]` and `[1, 2]`".  The words after the first vector were read as the name of a product,
"[1, 0, 1] ... W_K", so the quoted row [0, 1] of W_K became "K row 1" and was a false error (t209f, a Portuguese
lesson).  Only a weight named alone after a row (`[1, 0] · W_K`) makes that product."""

from check_helpers import error_places, line_of

PAGE = """# Tiny attention, by hand

Two tokens, three features, heads of size 2:

```
      x₀ = [1, 0, 1]          W_Q = [1 0]     W_K = [0 1]     W_V = [2 0]
X =   x₁ = [0, 1, 1]                [0 1]           [1 0]           [0 1]
                                    [1 1]           [1 2]           [1 1]
```

Row by row:

```
Q = [2  1]        K = [1  3]        V = [3  1]
    [1  2]            [2  K22]            [1  2]
```

Check the first row of `K` by hand. `x₀ = [1, 0, 1]` picks rows 0 and 2 of `W_K`, which are `[0, 1]` and `[1, 2]`. Adding them gives `[1, 3]`, as in the table.
"""


def test_the_rows_of_w_k_quoted_in_a_sentence_are_not_rows_of_k():
    assert error_places(PAGE.replace("K22", "2")) == []


def test_a_slip_in_k_itself_is_still_found():
    text = PAGE.replace("K22", "3")
    assert error_places(text) == [(line_of(text, "[2  3]"), "3")]
