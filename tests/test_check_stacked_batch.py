"""A batch written as its rows stacked: $X = [\\dots] \\in \\mathbb{R}^{2 \\times 2 \\times 3}$ over a 4×3 display is two
sequences of two tokens, not a wrong shape; a stated shape whose rows do not stack to the display is still wrong."""

import pytest

from mha.check import check_document

DOC = r"""# Two sequences at once

Two sequences of two tokens each, with three features, are written one under the other:

$$
X = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 0 \\ 1 & 1 & 0 \\ 0 & 0 & 1 \end{bmatrix} \in \mathbb{R}^{SHAPE}
$$

The queries are the inputs themselves ($W_Q = W_K = W_V = I$), so the first row of scores is $[2, 0, 1, 1]$.
"""


def test_a_stacked_batch_is_no_wrong_shape():
    r = check_document(DOC.replace("SHAPE", r"2 \times 2 \times 3"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("shape", [r"2 \times 3 \times 3", r"3 \times 4"])
def test_a_shape_that_does_not_stack_to_the_display_is_still_wrong(shape):
    r = check_document(DOC.replace("SHAPE", shape), fmt="md")
    assert [f.line for f in r.errors] == [6], [f.describe() for f in r.errors]


def test_the_result_of_a_product_said_in_words_is_not_the_output():
    """"Q (3×2) by Kᵀ (2×3) = result (3×3)": the result of that product (the scores), not the output Y."""
    text = DOC.replace("SHAPE", r"4 \times 3") + "\nNow multiply Q (4×3) by K^T (3×4) = result (4×4).\n"
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
