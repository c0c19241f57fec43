"""Queries of another sequence in a table beside the encoder's words (last look t168c, a Traditional Chinese page on
encoder-decoder attention): the encoder's embeddings, "W^K = W^V = I", and a table whose "Query" column lists the
decoder's hand-picked query for each output step.  With W_Q taken as I, the column was judged as X·W_Q: one row
matched an input row and the others one entry each, so two entries were "projection errors" (2 false findings).
Q, K or V judged against a projection the page does not print, with a row of which at most half agrees, is now one
"not checked" line (claims/assumed.rows_unlike_unprinted).  A slip in a wider row, most of it agreeing, is still
found.  My own page."""

from mha.check import check_document

PAGE = """# A toy translation

Encoder embeddings:

| word | Embedding |
| ---- | --------- |
| sun  | $[2, 0]$  |
| is   | $[0, 1]$  |
| hot  | $[1, 1]$  |

Take $W^K = W^V = I$, so $K = V = X$.

Each output step asks with a query of its own.

| step | Query     | top word |
| ---- | --------- | -------- |
| 1    | $[2, -1]$ | sun      |
| 2    | $[-1, 1]$ | is       |
| 3    | $[1, 1]$  | hot      |
"""

WIDE = """# Three tokens

$$X = \\begin{bmatrix} 1 & 0 & 2 & 1 \\\\ 0 & 1 & 1 & 0 \\\\ 2 & 1 & 0 & 1 \\end{bmatrix}$$

With $W_Q = W_K = W_V = I$:

$$Q = \\begin{bmatrix} 1 & 0 & 2 & 1 \\\\ 0 & 1 & 1 & 0 \\\\ 2 & 1 & 0 & 3 \\end{bmatrix}$$

$$S = QK^T = \\begin{bmatrix} 6 & 2 & 3 \\\\ 2 & 2 & 1 \\\\ 3 & 1 & 6 \\end{bmatrix}$$
"""


def test_queries_of_another_sequence_are_not_projection_errors():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_a_slip_in_a_row_that_mostly_agrees_is_still_found():
    assert [sum(a * b for a, b in zip(r, s)) for r in ([1, 0, 2, 1], [0, 1, 1, 0], [2, 1, 0, 1])
            for s in ([1, 0, 2, 1], [0, 1, 1, 0], [2, 1, 0, 1])] == [6, 2, 3, 2, 2, 1, 3, 1, 6]
    r = check_document(WIDE, fmt="md")
    assert [f.line for f in r.errors] == [7], [f.describe() for f in r.findings]
