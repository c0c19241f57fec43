"""Weights named as such right after the scaled scores named as such (`QKᵀ/√2 = [[..]]`, then `α = [[..]]`), whose
rows are not the softmax of those scores at all: every row nudged by hand so it still adds up to about 1 (a page
whose weights were written rather than worked, kshirol's chapter in set J).  Most entries disagree with the
configuration, so by values alone the matrix is "not checked" (an object that mostly disagrees was misidentified).
Here the names are the identity: the printout before it is the scaled scores, which the configuration confirms, and
no temperature makes the weights a softmax of them (claims/printchain.py `_labelled_softmax`).  So each wrong weight
is found on its row's line.  The same page with the right weights checks clean, and weights that are the softmax of
the unscaled scores (another reading) are left alone.  My own matrices."""

import numpy as np

Q = np.array([[0.9, 0.4], [0.3, 1.1], [0.6, 0.7]])
K = np.array([[0.5, 0.8], [1.0, 0.2], [0.4, 0.6]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])


def _softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _m(name, m, d=3):
    rows = [", ".join(f"{v:.{d}f}" for v in r) for r in m]
    return f"{name} = [[" + "],\n      [".join(rows) + "]]"


def _page(A=None):
    S = Q @ K.T
    A = _softmax(S / np.sqrt(2)) if A is None else A
    return "\n".join([
        "# Attention by hand", "",
        "Step 0: the given matrices", "", "```",
        _m("Q", Q, 1), _m("K", K, 1), _m("V", V, 1), "```", "",
        "Step 1: the scores", "", "```", _m("QK^T", S), "```", "",
        "Step 2: scale by √d_k", "", "```", _m("QK^T/√2", S / np.sqrt(2)), "```", "",
        "Step 3: softmax, row by row", "", "```", _m("α", A), "```", "",
        "Step 4: mix the values", "", "```", _m("Output", A @ V), "```", ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def _lines(text, start):
    lines = text.splitlines()
    k = next(i for i, s in enumerate(lines) if s.startswith(start))
    return {k + 1, k + 2, k + 3}


def test_the_right_weights_check_clean():
    r = _report(_page())
    assert r.errors == [] and r.n_numbers >= 30, r.configuration


def test_weights_written_rather_than_worked_are_found_on_every_row():
    A = _softmax(Q @ K.T / np.sqrt(2))
    nudged = A.copy()
    for i in range(3):                      # take 0.03 from the smallest weight, give it to the largest
        nudged[i, A[i].argmin()] -= 0.03
        nudged[i, A[i].argmax()] += 0.03
    text = _page(nudged)
    errs = [f for f in _report(text).errors if f.step == "softmax"]
    assert {f.line for f in errs} == _lines(text, "α = ")
    assert len(errs) == 6                   # the two moved weights of each row; the third is right


def test_weights_of_the_unscaled_scores_are_another_reading_not_a_slip():
    text = _page(_softmax(Q @ K.T))
    assert not {f.line for f in _report(text).errors} & _lines(text, "α = ")
