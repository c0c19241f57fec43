r"""Two false findings of the last look on the final code (t159):

* t159a, interview notes on multi-head attention: after a two-head example with d_k = 2, "If we merged both heads
  into one large head with $d_k = 4$, ..." describes an imagined head; d_k = 4 was judged as this example's size.
  A sentence that opens as a supposition ("If", "Suppose", "Imagine", 如果, 假设) is a condition for the sizes it
  names (claims/aside._CONDITION).
* t159b, a Chinese translation of a hand-worked Transformer: a product worked in three steps (operands, a matrix of
  written sums of products, the results) with one factor mistyped in one written sum; the result beside it, right
  for the real inputs, was called wrong.  Where the configuration identifies the result and gives that cell as
  printed, the mistyped written sum is the one slip (claims/cellwise._held_cells).
"""

import numpy as np

from mha.check import check_document

SUPPOSED = r"""# Two heads of two dimensions

$$
X = \begin{bmatrix} 1 & 0 & 1 & 0 \\ 0 & 1 & 0 & 1 \end{bmatrix}, \quad d_{model} = 4, \quad h = 2, \quad d_k = 2
$$

With $W^Q = W^K = W^V = I$ and no $W^O$, each head takes two columns of $X$; head 1's scores are

$$
S^{(1)} = \begin{bmatrix} 0.7071 & 0 \\ 0 & 0.7071 \end{bmatrix}
$$

If we merged both heads into one large head with $d_k = 4$, the single distribution would mix both views.
"""

WORKED = r"""# Keys worked by hand

The input rows, positions included:

$$
E = \begin{bmatrix} 2 & 1 \\ 0.5 & 1.5 \end{bmatrix}
$$

The key weights:

$$
W_K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}
$$

$$
\begin{align*}
K = E \times W_K &= \begin{bmatrix}
(2 \times 1) + (1 \times 0) & (2 \times 0) + (1 \times 1) \\
(0.5 \times 1) + (1.5 \times 0) & (0.5 \times 0) + (2 \times 1)
\end{bmatrix} \\
&= \begin{bmatrix}
2 & 1 \\
0.5 & 1.5
\end{bmatrix}
\end{align*}
$$
"""


def test_the_numbers_are_what_numpy_gives():
    X = np.array([[1, 0, 1, 0], [0, 1, 0, 1.0]])
    S1 = X[:, :2] @ X[:, :2].T / np.sqrt(2)
    assert np.round(S1, 4).tolist() == [[0.7071, 0.0], [0.0, 0.7071]]
    E = np.array([[2, 1], [0.5, 1.5]])
    assert (E @ np.eye(2)).tolist() == [[2, 1], [0.5, 1.5]]
    assert 0.5 * 0 + 2 * 1 == 2 != 1.5          # the written sum in cell [2,2] has 2 where E has 1.5


def test_a_supposed_head_size_is_not_this_examples():
    r = check_document(SUPPOSED, fmt="md")
    assert not any(f.line == 13 for f in r.errors), [f.describe() for f in r.errors]


def test_a_mistyped_written_sum_is_the_slip_not_the_result_beside_it():
    r = check_document(WORKED, fmt="md")
    assert not any(f.line == 23 for f in r.errors), [f.describe() for f in r.errors]     # the right result
    # the written sum is named, as an error or (E being a guessed X here) as not checked with the reason
    assert [f.line for f in r.errors] == [19] or any(n.line == 19 for n in r.not_checked), \
        [f.describe() for f in r.errors] + [str(n) for n in r.not_checked]
