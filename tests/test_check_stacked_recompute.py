"""A decoding step worked twice, as a solution sheet does: first recomputed over every token (the new one stacked
under the earlier ones: X_all, Q_all, K_all), then with the cache.  X_all and Q_all name X and Q for all tokens;
read as nameless, they were taken for the printed cache (most entries alike, since W_K is near I) and each
differing entry was an error (t206c, a LaTeX KV-cache solution)."""

import numpy as np

from check_helpers import error_places, line_of

X_OLD = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, 1.0]])
x_t = np.array([[0.0, 2.0]])
W_Q = np.eye(2)
W_K = np.array([[1.0, 0.0], [1.0, 1.0]])
W_V = np.array([[1.0, 1.0], [0.0, 1.0]])
X_ALL = np.vstack([X_OLD, x_t])


def bmatrix(M, fmt="{:g}") -> str:
    return "\\begin{bmatrix}" + "\\\\".join("&".join(fmt.format(v) for v in r) for r in M) + "\\end{bmatrix}"


def sheet(scores=None) -> str:
    K = X_ALL @ W_K
    s = (x_t @ W_Q) @ K.T / np.sqrt(2.0) if scores is None else scores
    return f"""\\documentclass{{article}}
\\usepackage{{amsmath}}
\\begin{{document}}
\\section*{{Given}}
Three tokens already seen, $X_{{\\mathrm{{past}}}} = {bmatrix(X_OLD)}$, and the new token $x_t = {bmatrix(x_t)}$.

\\[ W_Q = {bmatrix(W_Q)},\\quad W_K = {bmatrix(W_K)},\\quad W_V = {bmatrix(W_V)},\\quad d_k = 2. \\]

\\section*{{Without a cache}}
Put the new token under the others:
\\[ X_{{\\mathrm{{all}}}} = {bmatrix(X_ALL)} \\]
so that
\\[ Q_{{\\mathrm{{all}}}} = {bmatrix(X_ALL @ W_Q)},\\qquad K_{{\\mathrm{{all}}}} = {bmatrix(K)},\\qquad
V_{{\\mathrm{{all}}}} = {bmatrix(X_ALL @ W_V)}. \\]

\\section*{{With a cache}}
Once the new key and value are appended,
\\[ K_{{\\mathrm{{cache}}}} = {bmatrix(K)},\\qquad V_{{\\mathrm{{cache}}}} = {bmatrix(X_ALL @ W_V)}. \\]
The new query's scaled scores:
\\[ s_t = \\frac{{q_t K_{{\\mathrm{{cache}}}}^\\top}}{{\\sqrt{{2}}}} \\approx {bmatrix(s, "{:.4f}")}. \\]
\\end{{document}}
"""


def test_the_stacked_input_and_its_queries_are_not_judged_as_the_cache():
    assert error_places(sheet(), fmt="tex") == []


def test_a_slipped_score_of_the_cached_step_is_still_found():
    s = (x_t @ W_Q) @ (X_ALL @ W_K).T / np.sqrt(2.0)
    s[0, 2] += 0.1
    text = sheet(s)
    assert error_places(text, fmt="tex") == [(line_of(text, "s_t ="), f"{s[0, 2]:.4f}")]
