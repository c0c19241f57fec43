r"""Numbers that a page states correctly about something other than the quantity they sit next to, each from an
outside trial's page (t243c), each once reported as a slip:

- a size after a product written with a sign, `Q × K^T (a 3×3 matrix of scores)`, is the product's, not Kᵀ's;
- a bracketed product inside a running total, `+ W_O (8 × 8 = 64) = 256`: the total is said of the sum before the
  brackets, not of the product in them;
- a point that parts thousands (`768 × 768 = 589.824`, as Portuguese or German pages write counts in a code block);
- the shape printed of a tensor the snippet fills at random (`scores = torch.randn(batch, T, T)`), which is that
  snippet's, not the example's.

My own pages and numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document

_QKV = ["Q = [[1, 0], [0, 1], [1, 1]]", "", "K = [[1, 0], [0, 1], [1, 1]]", "", "V = [[1, 2], [3, 4], [5, 6]]", ""]


def _errors(page: str) -> list:
    return [f for f in check_document(page, fmt="md").findings if f.severity == "error"]


def test_a_size_after_a_product_with_a_sign_is_the_products():
    page = "\n".join(["## Three tokens", "", *_QKV,
                      "Working out Q × K^T (a 3×3 matrix of scores):", "",
                      "```", "Q × K^T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]", "```", ""])
    assert _errors(page) == []
    slipped = page.replace("[1, 1, 2]]", "[1, 1, 3]]")
    assert error_places(slipped) == [(line_of(slipped, "[1, 1, 3]]"), "3")]


def _counts(total="256", product="64"):
    return "\n".join([
        "## Parameters of one attention block (d_model = 8, no biases)", "",
        "1. W_Q + W_K + W_V = 3 × (8 × 8) = 3 × 64 = 192",
        f"2. + W_O (8 × 8 = {product}) = **{total}**",
        "3. Check: 4 × 8² = 4 × 64 = **256**", ""])


def test_a_running_total_after_a_bracketed_product_is_not_the_products():
    assert _errors(_counts()) == []
    page = _counts(product="46")                   # a slip inside the brackets is still the product's
    assert error_places(page) == [(line_of(page, "= 46"), "46")]


def test_a_point_that_parts_thousands_is_no_decimal_point():
    page = "\n".join([
        "## Contagem de parâmetros", "", "Com d_model = 768 e 12 cabeças de 64:", "",
        "```", "W_Q, W_K, W_V:  3 × (768 × 768) = 1.769.472", "W_O:                768 × 768 =   589.824",
        "vieses:             4 × 768   =     3.072", "```", "",
        "Cada cabeça vê 768 / 12 = 64 dimensões.", ""])
    assert _errors(page) == []
    slipped = page.replace("589.824", "589.842")
    assert error_places(slipped) == [(line_of(slipped, "589.842"), "589.842")]


def test_the_shape_of_a_tensor_filled_at_random_is_the_snippets():
    page = "\n".join([
        "## Softmax over scores", "", *_QKV,
        "```python", "scores = Q @ K.T", 'print("scores.shape:", scores.shape)', "print(scores)", "```", "",
        "```text", "scores.shape: torch.Size([3, 3])", "tensor([[1., 0., 1.],", "        [0., 1., 1.],",
        "        [1., 1., 2.]])", "```",
        "",
        "Now a batch of random scores:", "",
        "```python", "batch, T = 2, 3", "scores = torch.randn(batch, T, T)", "weights = torch.softmax(scores, -1)",
        'print("scores.shape:", scores.shape)', 'print("weights.shape:", weights.shape)', "```", "",
        "```text", "scores.shape: torch.Size([2, 3, 3])", "weights.shape: torch.Size([2, 3, 3])", "```", ""])
    assert _errors(page) == []
    slipped = page.replace("scores.shape: torch.Size([3, 3])", "scores.shape: torch.Size([3, 2])")
    assert error_places(slipped) == [(line_of(slipped, "torch.Size([3, 2])"), "3×2")]
