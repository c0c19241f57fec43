r"""Two false findings of an outside trial on a page of analogies (a knowledge store, a vector database; t252b).

`m·log_2(k) = 8·log_2(256) = 8·8 = 64 bits = 8 bytes`: the chain's last two parts are one size in two units, and
8 was held to 64.  Neighbouring parts that end in different units of size are a conversion, not an equation.

`Your question becomes numbers: [0.72, 0.31, 0.18, ...]`: a vector whose "..." says more entries follow was matched
to a row of K three wide, and its 0.18 was "wrong".  An elided row (or column) stands for at least one entry more
than it prints.  My own numbers."""

from check_helpers import error_places, line_of

_X = r"""## The key of one token

$$X = \begin{bmatrix} 0.8 & 0.2 & 0.1 \end{bmatrix}, \quad
W_K = \begin{bmatrix} 0.9 & 0.2 & 0.1 \\ 0.1 & 0.6 & 0.3 \\ 0.2 & 0.1 & 0.8 \end{bmatrix}$$

$$K = X W_K = \begin{bmatrix} 0.76 & 0.29 & 0.22 \end{bmatrix}$$
"""


def test_a_size_converted_to_another_unit_is_no_equation():
    page = "## Memory\n\nPer vector: m·log_2(k) = 8·log_2(256) = 8·8 = 64 bits = 8 bytes\n\nAnd 8·8 = 65 bits.\n"
    assert error_places(page) == [(line_of(page, "65 bits"), "65")]


def test_an_elided_row_is_no_row_of_a_matrix_as_narrow_as_its_prefix():
    page = _X + "\n```\nYour question becomes numbers: [0.76, 0.29, 0.18, ...]\n```\n"
    assert error_places(page) == []
    slipped = _X.replace("0.29 & 0.22", "0.92 & 0.22")
    assert error_places(slipped) == [(line_of(slipped, "0.92"), "0.92")]
