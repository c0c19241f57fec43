r"""Scaled scores named by a subscript on the scores' own symbol: `{QK^T}_{scaled}` (or `QK^T_{\text{scaled}}`).
The label read as QKᵀ itself, so with the raw scores as the start the scaled matrix was "named as the input the
example starts from, with other values" and went unchecked, and a slip in it unfound (a Korean blog page built
with KaTeX, t231b).  A `scaled` subscript on the scores names the scaled scores (labels.py).  My own matrix."""

import numpy as np

from check_helpers import error_findings

RAW = np.array([[0.31, 0.12, -0.05], [0.08, 0.44, 0.19], [-0.12, 0.27, 0.36]])


def _m(name, m):
    rows = r" \\ ".join(" & ".join(f"{v:.3f}" for v in r) for r in m)
    return f"$$ {name} = \\begin{{bmatrix}} {rows} \\end{{bmatrix}} $$"


def _page(scaled=None):
    e = np.exp(RAW / 2 - (RAW / 2).max(axis=1, keepdims=True))      # the weights follow the right scaled scores
    scaled = RAW / 2 if scaled is None else scaled
    return "\n\n".join(["# Scores of four-wide heads", "The raw scores:", _m("QK^T", RAW),
                        "With $d_k = 4$, each score is divided by 2:", _m(r"{QK^T}_{\text{scaled}}", scaled),
                        "And their softmax:", _m("A", e / e.sum(axis=1, keepdims=True)), ""])


def test_the_scaled_matrix_is_checked_and_holds():
    from mha.check import check_document
    r = check_document(_page(), fmt="md")
    assert r.errors == [] and r.n_numbers >= 18, (r.n_numbers, [n.what for n in r.not_checked])


def test_a_slip_in_the_scaled_matrix_is_found():
    bad = RAW / 2
    bad[1, 2] = 0.059
    assert [f.printed for f in error_findings(_page(bad))] == ["0.059"]


def test_a_root_written_in_math_after_divided_by_gives_the_scale():
    # "Divided by $\sqrt{4} = 2$": the root in inline math after the words (readers/builder.py "scale_sqrt")
    from mha.check import check_document
    text = _page().replace("With $d_k = 4$, each score is divided by 2:", "Divided by $\\sqrt{4} = 2$:")
    r = check_document(text, fmt="md")
    assert "d_k = 4" in " ".join(map(str, r.configuration.values())) and r.errors == [], r.configuration
