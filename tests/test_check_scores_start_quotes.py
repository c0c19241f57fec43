"""Pages that start from scores, quote their results one by one, or write a dot product, a percent or a copy of X in
ways the checker misread (outside trials t196a, t196b, t196d, t196e).

* t196b: a table of given scores typed by hand, `0.9` beside `0.95`: the shorter entry was read as rounded to one
  decimal (0.85..0.95), which let a weight one unit off pass as the scores' rounding.
* Scores given, then values written as one row of scalars (`v = [10, 20, 30]`, one value per key), then the
  output: the row was not taken for the values, and the output was not checked.
* Scores given, then the weights quoted one per line (`α_2 = 0.2447`): the quotes named their entries, but with no
  array explained beyond the scores, none was judged.
* t196e: `q₂ · k₁ = [1,2]·[2,1] = 4`, a dot product of two vectors, was read as two shapes multiplied.
* t196a: `$2.0 / 1.0 = 200%$`, a ratio over one in percent, and a `%` typed inside math (a TeX comment sign) were
  judged as 200 and as 25.
* t196a: `score12 = q1 @ k2.T = 1` under the printed vectors q1 and k2 (whose product is 0) went unjudged, and
  `q_1 · k_2 = 1.86` with no configuration at all too.
* t196d: a named X printed again with a slip (`inputs[1]`) was set aside because the projections were assumed.
"""

from check_helpers import code_notebook, error_places

SCORE_TABLE = """# One query, four keys

| key | raw score | weight |
|-----|-----------|--------|
| red | 1.3 | 0.27 |
| green | 0.45 | 0.12 |
| blue | 2.0 | 0.55 |
| grey | -0.2 | 0.06 |
"""


def test_a_table_of_given_scores_holds():
    assert error_places(SCORE_TABLE) == []


def test_a_weight_one_unit_off_beside_short_given_scores_is_found():
    assert error_places(SCORE_TABLE.replace("| 2.0 | 0.55 |", "| 2.0 | 0.56 |")) == [(7, "0.56")]


SCALAR_VALUES = """# From scores to an output

The scores of our query against three keys:

scores = [1.5, 0.5, -0.5]

Their softmax:

weights = [0.6652, 0.2447, 0.0900]

The values, one number per key: v = [10, 20, 30]. The output:

O = [[14.2479]]
"""


def test_values_as_a_row_of_scalars_hold():
    assert error_places(SCALAR_VALUES) == []


def test_a_slipped_output_from_scalar_values_is_found():
    assert error_places(SCALAR_VALUES.replace("14.2479", "14.2749")) == [(13, "14.2749")]


QUOTED_WEIGHTS = """# Weights, one line each

The scores of our query against three keys:

scores = [1.5, 0.5, -0.5]

After the softmax:

α_1 = 0.6652

α_2 = 0.2447

α_3 = 0.0900
"""


def test_weights_quoted_one_per_line_hold():
    assert error_places(QUOTED_WEIGHTS) == []


def test_a_slipped_quoted_weight_is_found():
    assert error_places(QUOTED_WEIGHTS.replace("0.2447", "0.2474")) == [(11, "0.2474")]


def test_a_lone_quote_with_no_peers_is_not_judged():
    page = QUOTED_WEIGHTS.replace("α_1 = 0.6652\n\n", "").replace("α_3 = 0.0900\n", "")
    assert error_places(page.replace("0.2447", "0.2474")) == []


DOT_OF_VALUES = r"""# Three tokens, two features

$$X = \begin{bmatrix} 2 & 1 \\ 1 & 2 \\ 1 & 0 \end{bmatrix}$$

All three projections are the identity, so Q = K = V = X.

$$QK^\top = \begin{bmatrix} 5 & 4 & 2 \\ 4 & 5 & 1 \\ 2 & 1 & 1 \end{bmatrix}$$

Check one entry: `q₂ · k₁ = [1,2]·[2,1] = 4`.

$$\frac{QK^\top}{\sqrt{2}} = \begin{bmatrix} 3.5355 & 2.8284 & 1.4142 \\ 2.8284 & 3.5355 & 0.7071 \\
1.4142 & 0.7071 & 0.7071 \end{bmatrix}$$

$$A = \begin{bmatrix} 0.6200 & 0.3057 & 0.0743 \\ 0.3177 & 0.6443 & 0.0381 \\ 0.5035 & 0.2483 & 0.2483
\end{bmatrix}$$
"""


def test_a_dot_product_of_two_vectors_is_no_product_of_shapes():
    assert error_places(DOT_OF_VALUES) == []


def test_the_page_still_finds_a_slipped_weight():
    assert error_places(DOT_OF_VALUES.replace("0.6443", "0.6434")) == [(14, "0.6434")]


RATIOS = r"""# Why not divide by the sum?

Scores: $2.0, 1.0, -2.0$

- Their sum is $2.0 + 1.0 + (-2.0) = 1.0$
- The first over the sum: $2.0 / 1.0 = 200%$, more than everything
- The second over four: $1.0 / 4.0 = 25%$
"""


def test_percents_over_one_hundred_and_typed_inside_math_hold():
    assert error_places(RATIOS) == []


def test_a_wrong_percent_inside_math_is_still_found():
    assert error_places(RATIOS.replace("= 25%", "= 30%")) == [(7, "30%")]


NAMED_DOTS = """# Two dot products by name

- `q1 = [1, 0, 2, 0]`, `k1 = [1, 1, 1, 0]`, `k2 = [0, 1, 0, 1]`.
- `score11 = q1 @ k1.T = 3`.
- `score12 = q1 @ k2.T = 0`.
"""


def test_named_dot_products_hold():
    assert error_places(NAMED_DOTS) == []


def test_a_wrong_named_dot_product_is_found():
    assert error_places(NAMED_DOTS.replace("k2.T = 0", "k2.T = 1")) == [(5, "1")]


ONE_PAIR = r"""# A single pair

If $q_1 = (0.5, 1.5, -1.0)$ and $k_2 = (2.0, 0.5, 0.25)$, their dot product is $q_1 \cdot k_2 = 1.5$.
"""


def test_a_pair_with_no_configuration_holds():
    assert error_places(ONE_PAIR) == []


def test_a_pair_with_no_configuration_is_judged():
    assert error_places(ONE_PAIR.replace("= 1.5$", "= 1.6$")) == [(3, "1.6")]


def test_the_scaled_value_quoted_under_the_pair_is_no_slip():
    assert error_places(ONE_PAIR.replace("= 1.5$", "= 0.866$")) == []


def _copy_of_x(row: str) -> str:
    return code_notebook([
        ("import torch\ninputs = torch.tensor([[0.25, 0.75, 0.50],\n                       [0.10, 0.90, 0.30],\n"
         "                       [0.60, 0.20, 0.40]])", None),
        ("print(inputs[1])", f"tensor([{row}])"),
        ("torch.manual_seed(7)\nlayer = SelfAttention(3, 2)\nlayer(inputs)",
         "tensor([[0.4121, -0.1307],\n        [0.3954, -0.1422],\n        [0.4310, -0.1185]])"),
    ])


def test_a_named_x_printed_again_holds():
    assert error_places(_copy_of_x("0.1000, 0.9000, 0.3000"), "ipynb") == []


def test_a_slip_in_a_named_x_printed_again_is_found_though_the_projections_are_assumed():
    # (the layer's weights are random and never printed: nothing computed from X bears the assumed I out)
    assert error_places(_copy_of_x("0.1000, 0.9900, 0.3000"), "ipynb") == [(1, "0.9900")]


THIN_SPACES = r"""# Parameters of one layer

Attention: $4 \times (64\,\times 64 + 64) = 16\,640$. Feed-forward: $33\,088$. Norms: $256$.

Together: $16\,640 + 33\,088 + 256 = 49\,984$.
"""


def test_thousands_parted_by_thin_spaces_hold():
    assert error_places(THIN_SPACES) == []


def test_a_slipped_total_of_numbers_parted_by_thin_spaces_is_found():
    # (t196f: `16\,640` was two numbers, and the line went unread)
    assert error_places(THIN_SPACES.replace("= 49\\,984", "= 49\\,894")) == [(5, "49894")]


RUNNING = """# What one block keeps

```
scores = [1, 3, 0, 1]
```

```
exp_scores = [0.135, 1.000, 0.050, 0.135]
```

Carry on with: m₀=3, s₀=1.320, o₀=[0.512, 1.204, 0.877, 0.330].
"""


def test_a_running_sum_named_like_a_score_is_no_score():
    # (t200f: `s₀=1.320`, the running sum of a FlashAttention walkthrough, was judged as the first score)
    assert error_places(RUNNING) == []
