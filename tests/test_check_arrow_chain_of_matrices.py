r"""Scores, scaled scores and weights written as one display, matrices joined by labelled arrows
(`QK^T = [..] \xrightarrow{\div\sqrt2} [..] \xrightarrow{\text{row softmax}} [..]`, an outside trial's Korean
notes, t256a).  The weights took the chain's first name, QK^T, so they were read as the input given again with
other values and never judged.  The matrix after an arrow marked softmax is the weights.  My own numbers:
q = (1, 0), (0, 1), (1, 1), Q = K = V, d_k = 2."""

from check_helpers import error_findings

_PAGE = r"""## Three tokens by hand ($d_k = 2$)

The tokens are $q_1 = (1, 0)$, $q_2 = (0, 1)$ and $q_3 = (1, 1)$, with $Q = K = V$.

$$QK^T = \begin{bmatrix}1&0&1\\0&1&1\\1&1&2\end{bmatrix} \ \xrightarrow{\div\sqrt2} \ \begin{bmatrix}0.707&0&0.707\\0&0.707&0.707\\0.707&0.707&1.414\end{bmatrix} \ \xrightarrow{\text{row softmax}} \ \begin{bmatrix}0.40&0.20&0.40\\{w}&0.40&0.40\\0.25&0.25&0.50\end{bmatrix}$$
"""


def test_the_weights_after_the_softmax_arrow_hold():
    assert error_findings(_PAGE.replace("{w}", "0.20")) == []


def test_a_slipped_weight_after_the_softmax_arrow_is_found():
    assert [(f.line, f.printed) for f in error_findings(_PAGE.replace("{w}", "0.30"))] == [(5, "0.30")]
