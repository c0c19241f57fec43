"""Two readings that the outside trial t200 showed wrong:

* t200c, a Korean blog post: `scores: [..] → softmax → [..]` with the weights wrong, and below it the output worked
  from those weights and values.  The search started from the weights as given (with the values), so the softmax
  beside them was never judged.  Weights written as the softmax of scores printed with them are worked, not given.
* t200d, a lecture notebook: `torch.empty(n, n)` printed as zeros (and values next to nothing) beside scores whose
  diagonal dominates its rows; the zeros matched the exponentials off the diagonal, and each diagonal zero became
  a finding.  A matrix of zeros is evidence of no quantity unless its name says which.
"""

from check_helpers import code_notebook, error_places

ARROW = """# From scores to an output

```
scores: [1.5, 0.5, -1.0] → softmax → [0.59, 0.25, 0.16]
```

The values: V1 = [1, 0], V2 = [0, 1], V3 = [1, 1].

```
out = 0.59×V1 + 0.25×V2 + 0.16×V3 = [0.59, 0] + [0, 0.25] + [0.16, 0.16] = [0.75, 0.41]
```
"""


def test_wrong_weights_beside_their_scores_are_found_though_an_output_follows():
    assert error_places(ARROW) == [(4, "0.59"), (4, "0.16")]


def test_right_weights_beside_their_scores_hold():
    right = ARROW.replace("[0.59, 0.25, 0.16]", "[0.69, 0.25, 0.06]").replace("0.59×V1", "0.69×V1").replace(
        "0.16×V3", "0.06×V3").replace("[0.59, 0] + [0, 0.25] + [0.16, 0.16] = [0.75, 0.41]",
                                      "[0.69, 0] + [0, 0.25] + [0.06, 0.06] = [0.75, 0.31]")
    assert error_places(right) == []


def _memory(garbage: str) -> str:
    return code_notebook([
        ("import torch\nx = torch.tensor([[6., -5., 3., 4.], [-2., 7., 5., -4.], [5., 2., -6., 5.]])\nx",
         "tensor([[ 6., -5.,  3.,  4.],\n        [-2.,  7.,  5., -4.],\n        [ 5.,  2., -6.,  5.]])"),
        ("buffer = torch.empty(3, 3)  # uninitialised\nbuffer", garbage),
        ("x @ x.T", "tensor([[ 86., -48.,  22.],\n        [-48.,  94., -46.],\n        [ 22., -46.,  90.]])"),
    ])


def test_an_empty_buffer_of_zeros_is_no_matrix_of_exponentials():
    zeros = "tensor([[0., 0., 0.],\n        [0., 0., 0.],\n        [0., 0., 0.]])"
    assert error_places(_memory(zeros), "ipynb") == []


def test_nor_is_one_with_values_next_to_nothing():
    garbage = "tensor([[ 0.0000e+00, -2.3284e-13,  0.0000e+00],\n        [ 9.0000e-43,  0.0000e+00,  0.0000e+00],\n" \
              "        [ 0.0000e+00,  0.0000e+00,  0.0000e+00]])"
    assert error_places(_memory(garbage), "ipynb") == []


def test_a_slipped_score_after_it_is_still_found():
    nb = _memory("tensor([[0., 0., 0.],\n        [0., 0., 0.],\n        [0., 0., 0.]])").replace("-48.,  94.", "-48.,  95.")
    assert error_places(nb, "ipynb") == [(2, "95.")]


TWO_TABLES = """# A score per word, then its probability

| Word  | Score |
| ----- | ----: |
| river |   3.0 |
| bank  |   1.0 |
| boat  |   0.5 |

Then apply **Softmax**:

| Word  | Probability |
| ----- | ----------: |
| river |    **0.82** |
| bank  |    **0.11** |
| boat  |    **0.07** |
"""


def test_a_probability_table_after_a_score_table_holds():
    assert error_places(TWO_TABLES) == []


def test_a_slipped_probability_in_it_is_found():
    assert error_places(TWO_TABLES.replace("**0.11**", "**0.12**")) == [(14, "0.12")]


def test_probabilities_wrong_throughout_are_found_as_the_softmax_of_the_scores():
    # (t200b: "Probability", singular, named nothing; with every weight wrong nothing identified the example, and
    # an author's softmax off in every entry passed)
    wrong = TWO_TABLES.replace("**0.82**", "**0.70**").replace("**0.11**", "**0.20**").replace("**0.07**", "**0.10**")
    assert error_places(wrong) == [(13, "0.70"), (14, "0.20"), (15, "0.10")]


ROWS = """# Three tokens, no scale

```
Scores:
  t0:  [ 2,  0,  1 ]
  t1:  [ 0,  1,  1 ]
  t2:  [ 1,  1,  2 ]

After softmax (row-wise):
  t0:  [0.67, 0.09, 0.24]
  t1:  [0.21, 0.42, 0.42]
  t2:  [0.21, 0.21, 0.58]

Output = weights @ V, with V = [[1, 0], [0, 1], [1, 1]]:
  t0:  0.67*[1,0] + 0.09*[0,1] + 0.24*[1,1] = [0.91, 0.33]
  t1:  0.21*[1,0] + 0.42*[0,1] + 0.42*[1,1] = [0.63, 0.84]
  t2:  0.21*[1,0] + 0.21*[0,1] + 0.58*[1,1] = [0.79, 0.79]
```
"""


def test_a_right_row_that_reuses_the_wrong_rows_number_gets_no_note():
    # (t201b: t1's 0.21 is wrong (0.16), t2's two 0.21 are right; t2's sum was noted as carrying t1's slip)
    from mha.check import check_document
    r = check_document(ROWS, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(11, "0.21")]
    assert 17 not in [f.line for f in r.findings]
