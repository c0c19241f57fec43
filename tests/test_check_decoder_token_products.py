"""A later section's one token, Y, projected per head, each result written with its own factors:
`Q_1 = Y W_1^Q = [1 2 0 1][W_1^Q] = [1 3]`.

Outside trial t192b (a Russian notebook on the transformer): the heads' queries of a one-token decoder input were
taken for rows of the encoder example's Q and reported as "wrong head" (three false findings; the values were
right).  A result whose own printed factors give every entry the trace disputes is another example's values, not
a slip (claims/array.py).  And the token itself, named Y like an output, matched three of four entries of
the output's first row by chance: a vector named Y of small whole numbers only is identified by its values, not by
its letter (claims/identity.py).
"""

from check_helpers import error_places

W1 = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 0 \\ 0 & 1 \end{bmatrix}"
W2 = r"\begin{bmatrix} 0 & 1 \\ 1 & 0 \\ 0 & 1 \\ 1 & 0 \end{bmatrix}"

PAGE = rf"""# Two heads

$$X = \begin{{bmatrix}} 1 & 0 & 0 & 2 \\ 2 & 1 & 1 & 0 \\ 0 & 1 & 1 & 1 \end{{bmatrix}}$$

Two heads with $d_k = 2$:

$$W_1^Q = W_1^K = W_1^V = {W1}$$

$$W_2^Q = W_2^K = W_2^V = {W2}$$

$$Q_1 = X W_1^Q = \begin{{bmatrix}} 1 & 2 \\ 3 & 1 \\ 1 & 2 \end{{bmatrix}}, \quad
Q_2 = X W_2^Q = \begin{{bmatrix}} 2 & 1 \\ 1 & 3 \\ 2 & 1 \end{{bmatrix}}$$

## The decoder's token

$$Y = \begin{{bmatrix}} 1 & 2 & 0 & 1 \end{{bmatrix}}$$

**Head 1:**

$$Q_1 = Y W_1^Q = \begin{{bmatrix}} 1 & 2 & 0 & 1 \end{{bmatrix}} {W1} = \begin{{bmatrix}} 1 & 3 \end{{bmatrix}}$$

**Head 2:**

$$Q_2 = Y W_2^Q = \begin{{bmatrix}} 1 & 2 & 0 & 1 \end{{bmatrix}} {W2} = \begin{{bmatrix}} 3 & 1 \end{{bmatrix}}$$
"""


def test_the_decoder_token_s_queries_are_not_the_encoder_s_rows():
    assert error_places(PAGE) == []


def test_the_encoder_example_is_still_judged():
    assert error_places(PAGE.replace(r"1 & 2 \\ 3 & 1 \\ 1 & 2", r"1 & 2 \\ 3 & 1 \\ 1 & 3")) == [(11, "3")]
