r"""A notebook that sets its sizes once (`d_model = 4`) and names the key width after them in a later cell
(`d_k = d_model`), then prints random scores, the scores divided by √d_k and the weights, as an outside trial's
notebook does (t246b).  `d_k = d_model` gave d_k no number, so the scale 1/√4 was never tried: the page was read as
its random X with W = I, and the scaled scores and weights went unchecked ("labelled S but matches nothing").  A
name set to another name takes its number.  My own numbers."""

import numpy as np
from check_helpers import code_notebook, softmax

from mha.check import check_document

S = np.array([[3.1, -0.4, 1.2], [0.5, 2.6, -1.8], [-2.2, 0.9, 4.4]])


def _m(M, d):
    return "[" + "\n ".join("[" + " ".join(f"{x:{d + 4}.{d}f}" for x in r) + "]" for r in M) + "]"


def _notebook(scaled=None, weights=None):
    s2 = S / 2.0
    scaled = scaled if scaled is not None else s2
    weights = weights if weights is not None else np.array([softmax(r) for r in s2])
    return code_notebook([
        ("n_tokens = 3\nd_model = 4\nX = torch.randn(n_tokens, d_model)\nprint(X.numpy().round(2))",
         _m(np.array([[0.31, -1.2, 0.05, 0.77], [1.4, 0.2, -0.66, -0.1], [-0.9, 0.58, 1.1, 0.03]]), 2)),
        ("d_k = d_model\nW_Q = torch.randn(d_model, d_k)\nW_K = torch.randn(d_model, d_k)", None),
        ("scores = (X @ W_Q) @ (X @ W_K).T\nscores.numpy().round(2)", _m(S, 2)),
        ("scaled_scores = scores / d_k ** 0.5\nscaled_scores.numpy().round(2)", _m(scaled, 2)),
        ("attention_weights = F.softmax(scaled_scores, dim=-1)\nattention_weights.numpy().round(3)",
         _m(weights, 3)),
    ])


def _errors(text):
    return [(f.cell, f.printed) for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]


def test_the_scaled_scores_and_weights_are_checked_and_hold():
    report = check_document(_notebook(), fmt="ipynb")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 18, report.n_numbers


def test_a_slip_in_the_scaled_scores_is_found():
    scaled = np.round(S / 2.0, 2)
    scaled[1, 1] = 1.40
    assert _errors(_notebook(scaled=scaled)) == [(4, "1.40")]


def test_a_slip_in_the_weights_is_found():
    w = np.round(np.array([softmax(r) for r in S / 2.0]), 3)
    w[2, 2] += 0.1
    assert _errors(_notebook(weights=w)) == [(5, f"{w[2, 2]:.3f}")]
