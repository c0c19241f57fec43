"""A slip in a weight that a copy after dropout repeats correctly (t226b, a script with its output pasted as
comments: two causal heads, each with its weights and its weights after dropout at p = 0.5).  With 0.2902 printed
as 0.2920, the row's sum found the slip, and the dropout copy's correct 0.5804 was called wrong too, against the
slipped weight: two findings for one slip, one of them on a right line.  When the weight's own row does not sum to
1 while the others do, the slip is in the weights, and the copy is not blamed (claims/dropout.py `_row_off`).
My own weights."""

import numpy as np

from check_helpers import error_places, line_of

W = np.array([[1.0, 0.0, 0.0, 0.0],
              [0.5830, 0.4170, 0.0, 0.0],
              [0.2519, 0.3104, 0.4377, 0.0],
              [0.1722, 0.2611, 0.3180, 0.2487]])
KEPT = np.array([[0, 1, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1]])


def _t(m):
    return "tensor([" + ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in m) + "])"


def _page(w):
    return ("# Causal weights, then dropout (p = 0.5)\n\n```\nAttention weights:\n" + _t(w) +
            "\nDropout attention weights:\n" + _t(W * KEPT * 2) + "\n```\n")


def test_the_rows_sum_to_one():
    assert np.allclose(W.sum(axis=1), 1, atol=1e-4)


def test_the_clean_page_checks_clean():
    assert error_places(_page(W)) == []


def test_a_slipped_weight_is_one_finding_on_its_own_line():
    w = W.copy()
    w[2, 1] = 0.3140
    text = _page(w)
    assert [line for line, _ in error_places(text)] == [line_of(text, "0.3140")]
