"""Weights that act on column vectors (t271b page 03): a page that writes `q_i = W_Q x_i` and, in its code,
`Q = X @ W_Q.T`.  Transposing W_Q alone, or W_K alone, turns Q Kᵀ into neither product, so a search that moves one
weight at a time kept `X W_Q` and called the page's right scores "the transpose" and its weights "swapped".  The
three weights are now also tried transposed together.  My own numbers: three tokens of width 2, non-symmetric
weights, scores scaled by 1/√2."""

import numpy as np

from check_helpers import clean_report, error_findings

X = np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 0.0]])
W_Q = np.array([[1.0, 0.0], [1.0, 1.0]])
W_K = np.array([[0.0, 1.0], [2.0, -1.0]])
W_V = np.array([[1.0, 1.0], [0.0, 2.0]])


def _softmax_rows(S):
    e = np.exp(S - S.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _steps():
    Q, K, V = X @ W_Q.T, X @ W_K.T, X @ W_V.T       # q_i = W_Q x_i, row by row
    S = Q @ K.T / np.sqrt(2.0)
    A = _softmax_rows(S)
    return Q, K, V, S, A, A @ V


def _tex(M, fmt="{:g}"):
    rows = [" & ".join(fmt.format(x) for x in row) for row in M]
    return "\\begin{bmatrix} " + " \\\\ ".join(rows) + " \\end{bmatrix}"


def _page(slip=None):
    Q, K, V, S, A, O = _steps()
    A_shown = [[f"{x:.4f}" for x in row] for row in A]
    if slip is not None:
        A_shown[1][2] = slip
    a_tex = "\\begin{bmatrix} " + " \\\\ ".join(" & ".join(r) for r in A_shown) + " \\end{bmatrix}"
    return f"""# Attention with weights that act on columns

Each token is a column vector here, and every projection multiplies it from the left:
$q_i = W_Q x_i$, $k_i = W_K x_i$, $v_i = W_V x_i$.

$$X = {_tex(X)}$$

$$W_Q = {_tex(W_Q)}, \\quad W_K = {_tex(W_K)}, \\quad W_V = {_tex(W_V)}$$

The scores, divided by $\\sqrt{{2}}$:

$$S = {_tex(S, "{:.4f}")}$$

Row by row softmax:

$$A = {a_tex}$$

And the output:

$$O = {_tex(O, "{:.4f}")}$$
"""


def test_a_page_whose_weights_act_on_columns_holds():
    report = clean_report(_page())
    # X (6), the three weights (12), S, A and O (9 each): every one explained, none set aside
    assert report.n_numbers == 33 and not report.not_checked
    assert "transposed" in report.configuration["W_Q"] and "transposed" in report.configuration["W_K"]


def test_a_slip_on_such_a_page_is_found_alone():
    _, _, _, _, A, _ = _steps()
    slipped = f"{A[1][2] + 0.06:.4f}"
    found = error_findings(_page(slip=slipped))
    assert found and {f.printed for f in found} == {slipped}
    assert all(abs(float(f.exact) - A[1][2]) < 1e-4 for f in found)


# `q_1 = W_Q x_1 = (2, 0)` with X = I: both readings explain the page's few numbers alike except these quotes of
# the projected vectors, and the search kept X W_Q on the tie, calling the quotes "transposed indices" (t272d page
# 03); the sentence `q_i = W_Q x_i` now sends the tie to the weights acting on columns
_TIE = """## Why the two projections differ

Take two tokens, $x_1 = (1, 0)$ and $x_2 = (0, 1)$, and

$$W_Q = \\begin{{pmatrix}} 2 & 1 \\\\ 0 & 1 \\end{{pmatrix}} \\qquad W_K = \\begin{{pmatrix}} 1 & 0 \\\\ 3 & 1 \\end{{pmatrix}}$$

Then $q_1 = W_Q x_1 = ({q1})$ and $k_2 = W_K x_2 = (0, 1)$, so $q_1 \\cdot k_2 = 0$.
And $q_2 = W_Q x_2 = (1, 1)$ with $k_1 = W_K x_1 = (1, 3)$, so $q_2 \\cdot k_1 = 4$.
"""


def test_quotes_of_vectors_under_a_left_acting_weight_hold():
    assert error_findings(_TIE.format(q1="2, 0")) == []


def test_a_slipped_quote_under_a_left_acting_weight_is_found():
    found = error_findings(_TIE.format(q1="2, 5"))
    assert found and {(f.line, f.printed) for f in found} == {(7, "5")}
