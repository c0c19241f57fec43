"""A batch written in LaTeX as a matrix of matrices, one inner bmatrix per sequence (t206a, Chinese notes with a
batch of two).  It was not read at all: no claim, not even a "not checked" line.  Read as a 2×3×3 printout, the
weights are judged against the scores printed above them, and a slipped weight is found on its line."""

import numpy as np

from check_helpers import error_places

S = np.array([[[0.40, -0.10, 0.20], [-0.10, 0.60, 0.00], [0.20, 0.00, 0.30]],
              [[1.20, 0.10, 0.50], [0.10, 0.00, -0.20], [0.50, -0.20, 0.70]]])
A = np.exp(S) / np.exp(S).sum(axis=-1, keepdims=True)


def nested(B) -> str:
    inner = ["\\begin{bmatrix}\n" + " \\\\\n".join(" & ".join(f"{v:.4f}" for v in row) for row in M) +
             "\n\\end{bmatrix}" for M in B]
    return "\\begin{bmatrix}\n" + "\\\\\n".join(inner) + "\n\\end{bmatrix}"


def page(weights) -> str:
    return f"""# A batch of two sequences

The scores of both sequences (already scaled):

$$
S = {nested(S)}
$$

The weights, a softmax over each row:

$$
\\text{{softmax}}(S) = {nested(weights)}
$$
"""


def test_a_batch_of_matrices_that_holds_gives_no_finding():
    assert error_places(page(A)) == []


def test_a_slipped_weight_in_the_second_matrix_is_found_on_its_line():
    slipped = A.copy()
    slipped[1, 2, 1] += 0.01
    text = page(slipped)
    printed = f"{slipped[1, 2, 1]:.4f}"
    line = next(i for i, ln in enumerate(text.splitlines(), start=1) if printed in ln and i > 20)
    assert error_places(text) == [(line, printed)]
