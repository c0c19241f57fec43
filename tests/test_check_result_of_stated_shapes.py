r"""A sentence that states the shapes of two factors and then the shape of "the result" (`$Q$ 是 $3\times2$，$K^T$ 是
$2\times3$，结果刚好是 $3\times3$`, an outside trial's Chinese lesson, t246c): the result is their product, Q Kᵀ, and
3×3 is right.  The word 结果 named the output Y, so the page got "shape of Y: printed 3×3; exact 3×2".  A shape
given to a bare word for a result, after two shapes in the same sentence, is the product's.  My own numbers."""

from mha.check import check_document


def _page(sentence):
    return "\n".join([
        "# 一个小例子", "",
        "$$Q = K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad "
        "V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\\\ 5 & 6 \\end{bmatrix}$$", "",
        sentence, "",
        "$$QK^T = \\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\\\ 1 & 1 & 2 \\end{bmatrix}$$", ""])


def test_the_result_after_two_factor_shapes_is_their_product():
    for sentence in ["$Q$ 是 $3\\times2$，$K^T$ 是 $2\\times3$，结果刚好是 $3\\times3$：",
                     "$Q$ is $3\\times2$ and $K^T$ is $2\\times3$, so the result is $3\\times3$:"]:
        report = check_document(_page(sentence), fmt="md")
        assert [f for f in report.findings if f.severity == "error"] == [], sentence


def test_a_named_output_shape_is_still_judged():
    report = check_document(_page("输出 $Y$ 的形状是 $3\\times3$。"), fmt="md")
    assert [f.printed for f in report.findings if f.severity == "error"] == ["3×3"]
