"""Displays wrapped whole in a style group, `$$ {\\textstyle \\begin{aligned} .. \\end{aligned}} $$`, as one author's
Markdown does for every equation.  The group hid the equations: the worked example went unread and a slipped
output passed (t209c, a long Markdown note on the mathematics of transformers).  The group only sets the style;
its equations are read."""

import numpy as np

from check_helpers import error_places, line_of

Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 1.0], [0.0, 1.0]])
V = np.array([[3.0, 0.0], [0.0, 3.0]])
S = Q @ K.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def bm(M, fmt="{:g}") -> str:
    return "\\begin{bmatrix}" + "\\\\".join(" & ".join(fmt.format(v) for v in r) for r in M) + "\\end{bmatrix}"


def page(O) -> str:
    return f"""# Two tokens, one head

$$
{{\\textstyle
\\begin{{aligned}}
Q &= {bm(Q)}, \\quad K = {bm(K)}, \\quad V = {bm(V)}
\\end{{aligned}}
}}
$$

With $d_k = 2$:

$$
{{\\textstyle
\\begin{{aligned}}
A &= {bm(A, "{:.3f}")} \\\\
O &= AV = {bm(O, "{:.3f}")}
\\end{{aligned}}
}}
$$
"""


def test_the_wrapped_example_is_read_and_holds():
    from mha.check import check_document
    report = check_document(page(A @ V), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == [] and report.n_numbers >= 8      # A and O, every entry


def test_a_slipped_output_inside_the_wrapper_is_found():
    O = A @ V
    O[0, 1] += 0.05
    text = page(O)
    assert error_places(text) == [(line_of(text, "O &= AV"), f"{O[0, 1]:.3f}")]
