"""Two habits of notebooks (t221a):

- `weights = F.softmax(weights, dim=-1)` in one cell and `weights` shown in the next, from random inputs no
  configuration explains: the rows of the printout are softmax rows and sum to 1, whatever the inputs were.  The name
  alone ("weights") was too vague to say so, and a slipped weight went unseen (claims/rowsum.py `_softmax_source`).
- "Step 3: Weighted sum (Attention Output):" over the output: "sum" was read as a row's sum, so a wrong output was
  dropped as matching nothing (vocabulary.py).

My own printouts."""

from check_helpers import code_notebook, error_places

ROWS = [[0.1520, 0.3011, 0.2465, 0.3004], [0.2500, 0.2500, 0.2500, 0.2500], [0.4102, 0.1187, 0.2920, 0.1791]]


def _shown(rows):
    body = [f"[{', '.join(f'{x:.4f}' for x in r)}]" for r in rows]
    return "tensor([" + ",\n        ".join(body) + "])"


def _notebook(rows):
    return code_notebook([("torch.manual_seed(0)\nq, k = torch.randn(3, 8), torch.randn(4, 8)\n"
                           "weights = q @ k.T * 8 ** -0.5", None),
                          ("weights = F.softmax(weights, dim=-1)", None),
                          ("weights", _shown(rows))])


def test_softmax_rows_that_sum_to_one_hold():
    assert all(abs(sum(r) - 1) < 5e-4 for r in ROWS)
    assert error_places(_notebook(ROWS), fmt="ipynb") == []


def test_a_row_that_does_not_sum_to_one_is_found():
    rows = [r[:] for r in ROWS]
    rows[2][0] = 0.4120
    found = error_places(_notebook(rows), fmt="ipynb")
    assert len(found) == 1 and found[0][1].endswith("= 1.0018")


OUTPUT_PAGE = """# Attention by hand

```python
Q = np.array([[1, 0, 1]])
K = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
V = np.array([[0, 1], [1, 0], [1, 1]])
weights = softmax(Q @ K.T / np.sqrt(3))
print("Step 2: Softmax weights:\\n", weights)
print("Step 3: Weighted sum (Attention Output):\\n", weights @ V)
```

```
Step 2: Softmax weights:
 [[0.53289684 0.16794345 0.29915971]]
Step 3: Weighted sum (Attention Output):
 [[0.46710316 {y}]]
```
"""


def test_a_wrong_output_under_weighted_sum_is_found():
    assert error_places(OUTPUT_PAGE.format(y="0.83205655")) == []
    text = OUTPUT_PAGE.format(y="0.83250655")
    assert [p for _, p in error_places(text)] == ["0.83250655"]
