r"""A key padding mask shown only by its result: three tokens, the last one `[PAD]`, Q, K and V given, and the
weights printed with a last column of zeros ("mask the padded key, then softmax each row"), the output written as
`weights \cdot V` (an outside trial's encoder notes, t246c).  The search tried no mask and a causal one, so the
weights matched nothing and neither a slipped weight nor a slipped output entry was found; `weights \cdot V` was
also read as the weights.  A printed matrix of weights whose last columns are exactly 0 in every row, the rest of
each row summing to 1, now offers a padding mask to the search; a product named with a sign is the product.
My own numbers and words."""

from check_helpers import error_findings, error_places, line_of

from mha.check import check_document
from mha.check.labels import parse_label


def _page(a22="0.5000", o31="0.6605"):
    return "\n".join([
        "## Padding in one head", "",
        "Three tokens; the third is `[PAD]` and no query may look at it.", "",
        r"$$Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad "
        r"K = \begin{bmatrix} 0 & 1 \\ 1 & 1 \\ 2 & 0 \end{bmatrix}, \quad "
        r"V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \\ 5 & 5 \end{bmatrix}$$", "",
        "Scores over $\\sqrt{2}$:", "",
        r"$$\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 0 & 0.7071 & 1.4142 \\ 0.7071 & 0.7071 & 0 \\ "
        r"0.7071 & 1.4142 & 1.4142 \end{bmatrix}$$", "",
        "Drop the padded key, then take the softmax of each row:", "",
        r"$$\text{weights} = \begin{bmatrix} 0.3302 & 0.6698 & 0 \\ 0.5000 & " + a22 + r" & 0 \\ "
        r"0.3302 & 0.6698 & 0 \end{bmatrix}$$", "",
        "The padded value row $[5, 5]$ never reaches the output:", "",
        r"$$\text{weights} \cdot V = \begin{bmatrix} 0.6605 & 1.3395 \\ 1.0000 & 1.0000 \\ " + o31 +
        r" & 1.3395 \end{bmatrix}$$", ""])


def test_the_padded_example_checks_clean_under_a_padding_mask():
    report = check_document(_page(), fmt="md")
    assert error_findings(_page()) == []
    assert report.configuration["mask"] == "padding: 2 keys"
    assert report.n_numbers >= 20


def test_a_slipped_weight_beside_a_padded_key_is_found():
    page = _page(a22="0.5100")
    assert error_places(page) == [(line_of(page, "0.5100"), "0.5100")]


def test_a_slipped_output_entry_is_found_and_named_as_the_output():
    page = _page(o31="0.6650")
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "0.6650"), "0.6650")]
    assert found[0].claim.startswith("O[3,1]")


def test_a_product_named_with_a_sign_is_the_product():
    for text in (r"\text{weights} \cdot \mathbf{V}", "weights × V", r"\alpha \cdot V"):
        assert parse_label(text).nodes == ("O",)
    assert parse_label("2 × V") is None
