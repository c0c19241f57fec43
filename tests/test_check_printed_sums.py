"""A printout of the sums of the weights printed just before it (claims/printedsum.py): the sanity line a notebook
prints after its softmax, `print(w.sum(dim=-1))`.  Each sum is the sum of the printed entries; a slipped sum is
found on its own line, and nothing is said where the operand itself does not add up or was re-bound unprinted."""

import numpy as np

from check_helpers import code_notebook, error_findings, error_places, line_of

X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
S = X @ X.T / np.sqrt(2.0)
W = np.exp(S - S.max(axis=1, keepdims=True))
W /= W.sum(axis=1, keepdims=True)


def torch_rows(M) -> str:
    body = ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in row) + "]" for row in M)
    return f"tensor([{body}])"


def torch_vector(v) -> str:
    return "tensor([" + ", ".join(f"{x:.4f}" for x in v) + "])"


def notebook(sums: str, weights=W, between: list | None = None, code: str = "print(attn.sum(dim=-1))") -> str:
    cells = [("import torch\nx = torch.tensor([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])\n"
              "attn = torch.softmax(x @ x.T / 2 ** 0.5, dim=-1)\nattn", torch_rows(weights))]
    cells += between or []
    cells.append((code, sums))
    return code_notebook(cells)


def test_sums_of_weights_that_hold_give_no_finding():
    assert error_places(notebook(torch_vector(W.sum(axis=1))), fmt="ipynb") == []


def test_a_slipped_row_sum_is_found_in_its_own_cell():
    sums = W.sum(axis=1)
    sums[1] = 1.1
    found = error_findings(notebook(torch_vector(sums)), fmt="ipynb")
    assert [(f.cell, f.printed) for f in found] == [(2, "1.1000")]
    assert "added up" in found[0].cause and found[0].rounded == "1.0000"


def test_a_slip_in_the_weights_is_not_charged_to_the_sums_after_them():
    slipped = W.copy()
    slipped[2, 0] += 0.1                      # that row no longer adds up: the weights are the suspect
    found = error_findings(notebook(torch_vector(W.sum(axis=1)), weights=slipped), fmt="ipynb")
    assert all(f.cell != 2 for f in found)


def test_weights_changed_without_a_print_in_between_are_not_the_operand():
    masked = W * np.tril(np.ones((3, 3)))
    between = [("attn = attn * torch.tril(torch.ones(3, 3))", None)]
    assert error_places(notebook(torch_vector(masked.sum(axis=1)), between=between), fmt="ipynb") == []


def test_a_sum_named_by_its_definition_and_keepdim_is_judged():
    sums = W.sum(axis=1)
    sums[0] = 0.9
    text = notebook("tensor([[" + "],\n        [".join(f"{v:.4f}" for v in sums) + "]])",
                    code="row_sums = attn.sum(dim=1, keepdim=True)\nrow_sums")
    assert [(f.cell, f.printed) for f in error_findings(text, fmt="ipynb")] == [(2, "0.9000")]


def page(columns) -> str:
    rows = "\n".join((" [" if i else "[[") + " ".join(f"{v:.4f}" for v in r) + "]" for i, r in enumerate(W)) + "]"
    return f"""# Weights, then the share of attention each key receives

```python
w = softmax(x @ x.T / np.sqrt(2), axis=-1)
print(w)
```

```
{rows}
```

How much attention each key gets in all, over the three queries:

```python
print(np.sum(w, axis=0))
```

```
[{' '.join(f'{v:.4f}' for v in columns)}]
```
"""


def test_column_sums_in_a_markdown_page_are_judged():
    assert error_places(page(W.sum(axis=0))) == []
    cols = W.sum(axis=0)
    cols[2] += 0.2
    text = page(cols)
    assert error_places(text) == [(line_of(text, f"{cols[2]:.4f}"), f"{cols[2]:.4f}")]


def test_a_captioned_print_of_the_sums_is_judged():
    # `print("All row sums:", attn.sum(dim=-1))` prints its caption before the tensor, and the caption labels the
    # printout; the call beside it still says what was added up (t212b, a notebook after Raschka's chapter 3)
    code = 'print("All row sums:", attn.sum(dim=-1))'
    assert error_places(notebook("All row sums: " + torch_vector(W.sum(axis=1)), code=code), fmt="ipynb") == []
    sums = W.sum(axis=1)
    sums[1] = 0.9
    found = error_findings(notebook("All row sums: " + torch_vector(sums), code=code), fmt="ipynb")
    assert [(f.cell, f.printed) for f in found] == [(2, "0.9000")]
