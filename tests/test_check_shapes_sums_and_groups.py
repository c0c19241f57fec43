"""Three readings from outside trials t268c and t268d (course notes, a blog exported to HTML, a parameter count with
its superscript lost), each a false finding before; my own numbers.

- `Value = [2, 3, 16]` (a shape list after "[heads, sequence, head_dim]") taken for one value per key gave d_v = 1,
  and the per-head shape line `Query[head] × Key[head]^T = [3, 16] × [16, 3] = [3, 3]` was judged as the weighted
  sum's `[3, 3] × [3, 1]`: with V read as one number per key, d_v is no size the page states.
- `(1*2 + 0*3 + 0*2)=2   (1*2 + 0*3 + 0*3)=2`: a result, spaces, then the next bracketed sum with its own result is
  two sums side by side, not 2 × (...).
- `= 1, 218, 053, 120.` (a whole number grouped by commas with spaces, the reader keeping only its first group): the
  printed value is all of it, not 1.
"""

from check_helpers import error_places

_SHAPES = r"""# Heads, step by step

#### Split into heads
```
// [heads, sequence, head_dim] after the transpose
Query = [2, 3, 16]
Key   = [2, 3, 16]
Value = [2, 3, 16]
```

#### Scores for one head
```
Per head:
Query[head] × Key[head]^T = [3, 16] × [16, 3] = [3, 3] score matrix

Scores = [[0.9, 0.2, 0.4],
          [0.3, 0.8, 0.1],
          [0.5, 0.6, 0.7]]
```

#### After the causal mask and the softmax
```
Row 1: [1.00, 0.00, 0.00]
Row 2: [0.38, 0.62, 0.00]
Row 3: [0.30, 0.33, 0.37]
```
"""

_SIDE_BY_SIDE = """# Products by hand

The first row: `(1*2 + 0*3 + 0*2)=2   (1*2 + 0*3 + 0*3)={a}`

The second row: `(1*2 + 1*3 + 0*2)=5   (1*2 + 1*3 + 0*3)=5`
"""

_GROUPED = r"""# Parameters

$params = 2 × 32000 × 2048 + 2048 + 16 × (4 × 20482 + 3 × 2048 × 5632 + 2 × 2048)= 953, 223, 168.$
"""


def test_shapes_per_head_under_values_read_one_per_key_are_not_judged_as_the_weighted_sum():
    assert error_places(_SHAPES) == []


def test_sums_side_by_side_are_two_sums():
    assert error_places(_SIDE_BY_SIDE.format(a="2")) == []
    assert error_places(_SIDE_BY_SIDE.format(a="3")) == [(3, "3")]


def test_a_number_grouped_with_spaces_is_not_its_first_group():
    assert error_places(_GROUPED) == []
