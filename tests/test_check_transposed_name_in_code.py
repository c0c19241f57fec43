"""`k_t = K.transpose(-2, -1)`, then `print(k_t.shape)`, from an outside trial's notebook (t240c).  The name reads
as K, so the printed `torch.Size([2, 3])` was reported as "shape of K: printed 2×3; exact 3×2".  The code says the
name holds K transposed: its shape is judged with the last two axes swapped (`claims/shapewords.py`,
`transposed_in_code`).  My own numbers."""

from check_helpers import error_findings, line_of


def _page(size="[2, 3]", k_shape="[3, 2]"):
    return "\n".join([
        "# Keys, transposed", "", "```python", "Q = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])",
        "K = torch.tensor([[1., 1.], [0., 1.], [1., 0.]])", "print(K.shape)", "```", "", "```",
        f"torch.Size({k_shape})", "```", "", "```python", "k_t = K.transpose(-2, -1)", "print(k_t.shape)", "```", "",
        "```", f"torch.Size({size})", "```", "", "```python", "scores = Q @ k_t / math.sqrt(2)", "print(scores)",
        "```", "", "```", "tensor([[0.7071, 0.0000, 0.7071],", "        [0.7071, 0.7071, 0.0000],",
        "        [1.4142, 0.7071, 0.7071]])", "```", ""])


def test_the_transposed_name_has_the_transposed_shape():
    assert error_findings(_page()) == []


def test_a_wrong_shape_of_k_itself_is_still_found():
    page = _page(k_shape="[2, 3]")
    errs = error_findings(page)
    assert [(f.line, f.kind) for f in errs] == [(line_of(page, "torch.Size([2, 3])"), "wrong_shape")], \
        [f.message() for f in errs]
