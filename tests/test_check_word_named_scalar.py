"""A bare number named only by a word, beside a matrix of many entries (t221d, a Chinese page on masking: "「爱」对「我」
的注意力从 0.0429 涨到 0.0759", the second value the masked one, the page's matrix unmasked).  It was judged against
whichever weight lay nearest within 5% (0.0784), a false finding.  Among many entries only a recognisable slip of one
(digits swapped, one digit off) says which it is (claims/arith.py).  My own example (X, W printed; 1/√2)."""

from check_helpers import error_places

PAGE = """# Attention, then a mask

$$
X = \\begin{{bmatrix}} 1 & 2 \\\\ 0 & 1 \\\\ 2 & 1 \\end{{bmatrix}},\\quad
W_Q = \\begin{{bmatrix}} 1 & 0 \\\\ 1 & 1 \\end{{bmatrix}},\\quad
W_K = \\begin{{bmatrix}} 0 & 1 \\\\ 1 & 0 \\end{{bmatrix}},\\quad
W_V = \\begin{{bmatrix}} 2 & 0 \\\\ 0 & 1 \\end{{bmatrix}}
$$

$$
A = \\begin{{bmatrix}} 0.6569 & 0.0191 & 0.3239 \\\\ 0.4458 & 0.1084 & 0.4458 \\\\
0.7679 & 0.0454 & 0.1867 \\end{{bmatrix}}
$$

With the causal mask the second word can no longer see the third, and its attention to the first rises to {x}.
"""


def test_a_value_under_another_condition_is_no_finding():
    assert error_places(PAGE.format(x="0.4601")) == []


def test_a_recognisable_slip_of_an_entry_is_still_found():
    assert [p for _, p in error_places(PAGE.format(x="0.4485"))] == ["0.4485"]
