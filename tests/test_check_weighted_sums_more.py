"""A weighted sum of values (`out = 0.1470·(1, 2) + 0.0541·(3, 4) + ...`): the room each entry has is each weight's
rounding times the value it weighs; and a weighted sum in an earlier section whose weights are none of them the
row's of the example worked later (the same tokens, unscaled there) is that section's, not slips of the later one."""

import pytest

from mha.check import check_document

ROOM = """# One query, four keys

The scores are (0, -1, 1, 1); the weights are 0.1470, 0.0541, 0.3995 and 0.3995.

The output is 0.1470 · (1, 2) + 0.0541 · (3, 4) + 0.3995 · (5, 6) + 0.3995 · (7, 8) = (OUT).
"""


@pytest.mark.parametrize("out, errors", [("5.1030, 6.1030", 0), ("5.1030, 6.1300", 1)])
def test_an_output_within_the_room_its_rounded_weights_give_holds(out, errors):
    r = check_document(ROOM.replace("OUT", out), fmt="md")
    assert len(r.errors) == errors, [f.describe() for f in r.errors]


TWO_SECTIONS = r"""# Attention, twice

## Without learning

Three tokens:

```
t1 = [1, 0]
t2 = [0, 1]
t3 = [1, 1]
```

Their plain dot products, token by token:

```
        t1     t2     t3
t1 ·   1.0    0.0    1.0
t2 ·   0.0    1.0    1.0
t3 ·   1.0    1.0    2.0
```

For row 3:

```
e^1.0 = 2.718,  e^1.0 = 2.718,  e^2.0 = 7.389     sum = 12.825
weights = [0.212, 0.212, 0.576]

context₃ = 0.212·[1,0] + 0.212·[0,1] + 0.576·[1,1] = [0.788, 0.788]
```

## With queries, keys and values

Now $W_Q = W_K = W_V = I$, the scores are divided by $\sqrt{2}$, and a causal mask hides later tokens:

$$
X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \qquad
A = \begin{bmatrix} 1 & 0 & 0 \\ 0.330 & 0.670 & 0 \\ 0.248 & 0.248 & 0.503 \end{bmatrix}
$$
"""


def test_an_earlier_unscaled_weighted_sum_is_not_judged_by_the_later_example():
    r = check_document(TWO_SECTIONS, fmt="md")
    assert not [f for f in r.errors if f.line == 28], [f.describe() for f in r.errors]


TWO_DECIMALS = """# One token's output

output = 0.51[1, 3] + 0.19[5, 7] + 0.31[9, 11] ≈ [OUT]
"""


@pytest.mark.parametrize("out, errors", [("4.2, 6.3", 0), ("4.2, 6.4", 1)])
def test_the_room_of_two_decimal_weights_does_not_hide_a_slip(out, errors):
    """Each weight's rounding, added in quadrature: 6.27 has room for 6.3, not for 6.4."""
    r = check_document(TWO_DECIMALS.replace("OUT", out), fmt="md")
    assert len(r.errors) == errors, [f.describe() for f in r.errors]


ASSUMED = """# Mixing the values with assumed weights

Assume the weights are [0.2, 0.5, 0.3]. Then

Output_1 = 0.2 · [1.07, 0.70] + 0.5 · [0.77, 0.90] + 0.3 · [0.87, 0.40] = [OUT]
"""


@pytest.mark.parametrize("out, errors", [("0.86, 0.71", 0), ("0.90, 0.71", 1)])
def test_weights_of_one_decimal_are_givens_with_no_room(out, errors):
    r = check_document(ASSUMED.replace("OUT", out), fmt="md")
    assert len(r.errors) == errors, [f.describe() for f in r.errors]


def test_a_sum_stated_in_parentheses_after_each_row():
    """`token3  0.2504 0.2385 0.2483 0.2628   (합계: 1.0)`: the remark in parentheses states the row's sum, a claim
    of the author's, judged by adding the row up (a Korean walk-through of a causal head)."""
    rows = [["1.0000", "0.0000", "0.0000"], ["0.5124", "0.4876", "0.0000"], ["0.3211", "0.3527", "0.3262"]]
    def doc(last: str) -> str:
        body = "\n".join(f"token{i}  " + "   ".join(r) + f"   (합계: {last if i == 2 else '1.0'})"
                         for i, r in enumerate(rows))
        scores = ("        token0   token1   token2\ntoken0  0.3000   -inf     -inf\ntoken1  0.0496   0.0000   -inf\n"
                  "token2  0.0000   0.0940   0.0160")
        return (f"# 가중치\n\n**마스크 후 점수:**\n```\n{scores}\n```\n\n**Softmax 후 어텐션 가중치:**\n```\n"
                f"        token0   token1   token2\n{body}\n```\n")
    from mha.check import check_document
    assert not check_document(doc("1.0"), fmt="md").findings
    r = check_document(doc("1.1"), fmt="md")
    assert [(f.line, f.rounded) for f in r.errors] == [(16, "1.1")], [f.describe() for f in r.findings]
