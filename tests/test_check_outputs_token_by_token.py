"""Each token's output worked in turn under a label that keeps no row index (outside trial t265c, a tree-attention
challenge page): `\\text{out}[1] = softmax(...) [V[0], V[1]] ≈ [2.3395, 3.3395]`.  The bracket after the name is
read apart, so the label says only "the output"; each one-row printout then matched another row than the first and
was called "a row of another head or token", a false finding on every token after the first.  A one-row printout
that matches a whole row of the quantity its label names, where the label names no row, holds; a slip in it is
still found against the row it is nearest.  My own numbers: three tokens, causal, scale 1/√2."""

from check_helpers import clean_report, error_findings

_PAGE = r"""## Each token in turn

Three tokens, d = 2, each token attends to itself and the tokens before it.

$$
Q = \begin{bmatrix} 0.0 & 1.0 \\ 1.0 & 0.0 \\ 1.0 & 1.0 \end{bmatrix} \quad
K = \begin{bmatrix} 1.0 & 0.0 \\ 0.0 & 1.0 \\ 1.0 & 1.0 \end{bmatrix} \quad
V = \begin{bmatrix} 2.0 & 0.0 \\ 0.0 & 2.0 \\ 3.0 & 1.0 \end{bmatrix}
$$

The outputs, token by token (counted from 0):

$$
\text{out}[0] = \text{softmax}\left(\frac{Q[0] \cdot K[0]^T}{\sqrt{2}}\right) V[0] = \begin{bmatrix} 2.0000 & 0.0000 \end{bmatrix}
$$

$$
\text{out}[1] = \text{softmax}\left(\frac{Q[1] \cdot [K[0], K[1]]^T}{\sqrt{2}}\right) [V[0], V[1]] \approx \begin{bmatrix} 1.3395 & 0.6605 \end{bmatrix}
$$

$$
\text{out}[2] = \text{softmax}\left(\frac{Q[2] \cdot [K[0], K[1], K[2]]^T}{\sqrt{2}}\right) [V[0], V[1], V[2]] \approx \begin{bmatrix} 2.0070 & 1.0000 \end{bmatrix}
$$
"""


def test_outputs_worked_token_by_token_hold():
    report = clean_report(_PAGE)
    assert report.n_numbers >= 6


def test_a_slip_in_one_token_output_is_found():
    found = error_findings(_PAGE.replace("1.3395 & 0.6605", "1.3895 & 0.6605"))
    assert [(f.line, f.printed) for f in found] == [(18, "1.3895")]
