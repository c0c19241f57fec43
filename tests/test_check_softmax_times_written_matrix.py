"""An aligned chain `softmax(\\frac{1}{\\sqrt{2}}[S])[V] = [A][V] = [O]`: the first side, the softmax of a matrix
written out times another written out, names the output, not the weights.  It was read as the weights, and an
output printed right was an error whose cause said "these are the values of O" (t207b, a Chinese note)."""

import numpy as np

from check_helpers import error_places

Q = np.array([[1.0, 0.0], [0.0, 2.0]])
K = np.array([[2.0, 1.0], [0.0, 1.0]])
V = np.array([[4.0, 0.0], [0.0, 4.0]])
S = Q @ K.T
A = np.exp(S / np.sqrt(2)) / np.exp(S / np.sqrt(2)).sum(axis=1, keepdims=True)


def bm(M, fmt="{:g}") -> str:
    return "\\begin{bmatrix}" + "\\\\".join("&".join(fmt.format(v) for v in r) for r in M) + "\\end{bmatrix}"


def page(O) -> str:
    return f"""# Two tokens

Let $Q = {bm(Q)}$, $K = {bm(K)}$ and $V = {bm(V)}$, with $d_k = 2$:

$$\\begin{{aligned}}
\\mathrm{{Attention}}(Q, K, V) &= \\mathrm{{softmax}}\\left(\\frac{{1}}{{\\sqrt{{2}}}}{bm(S)}\\right){bm(V)}\\\\
&= {bm(A, "{:.4f}")}{bm(V)}\\\\
&= {bm(O, "{:.4f}")}
\\end{{aligned}}$$
"""


def test_the_output_of_the_chain_is_judged_as_the_output():
    assert error_places(page(A @ V)) == []


def test_a_slipped_output_entry_is_found_as_a_slip():
    O = A @ V
    O[1, 0] += 0.01
    places = error_places(page(O))
    assert [p for _, p in places] == [f"{O[1, 0]:.4f}"]
