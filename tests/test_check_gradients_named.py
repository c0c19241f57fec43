"""A backward example (the loss is the sum of Y, dV printed) followed by the next block's activations, `H = ReLU(X
W1) = [[0.3, -0.2, -0.1], [0.4, -0.4, 0.1]]`, whose values at one decimal come close to rows of a gradient: an
array is judged as a gradient only when it is named as one.  And `8 heads × d_head=64 = 512` states d_head's value
and then the product, not 64 = 512.  The pages are this project's own."""

from check_helpers import error_lines

BACKWARD = """# Backward through one head

Q = [[1, 0], [0, 1], [1, 1]], K = [[1, 1], [0, 1], [1, 0]], V = [[1, 2], [0, 1], [2, 0]], d_k = 2.

A = [[0.4011, 0.1978, 0.4011], [0.4011, 0.4011, 0.1978], [0.5035, 0.2483, 0.2483]]

The loss is the sum of Y, so dY is all ones, and

dV = Aᵀ dY = [[1.3057, 1.3057], [0.8471, 0.8471], [DV31, 0.8471]]

## The block after attention

H = ReLU(X W1) = [[0.3, -0.2, -0.1], [0.4, -0.4, 0.1]]
"""


def test_an_array_not_named_as_a_gradient_is_not_judged_as_one():
    from mha.check import check_document
    r = check_document(BACKWARD.replace("DV31", "0.8471"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == []
    assert [n.line for n in r.not_checked if "not named as one" in n.reason] == [13]


def test_a_named_gradient_is_still_judged():
    found = error_lines(BACKWARD.replace("DV31", "0.8571"))
    assert list(found) == [9] and [f.printed for f in found[9]] == ["0.8571"]


HEADS = """# Sizes of the heads

```
8 heads × d_head=64 = 512
```

X = [[1, 0], [0, 1]]

QK^T = [[1, 0], [0, 1]]
"""


def test_a_factor_named_with_its_value_is_no_equation_of_the_two():
    assert error_lines(HEADS) == {}
