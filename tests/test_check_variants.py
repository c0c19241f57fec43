"""Slips in printouts that `mha check` used to leave unjudged: the scaled scores printed in full before
a causal mask (claims/premask.py), and a key/value state named "shared" (K_shared, V_{\\text{shared}}) that
every query reads (labels.py), and weights or outputs named unscaled, printed beside the scaled ones
(claims/unscaled.py).  Expected values are computed here with plain NumPy, not with mha."""

from __future__ import annotations

import numpy as np
import pytest

from mha.check import check_document
from mha.check.labels import parse_label

Q = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, -1.0]])
K = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
V = np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 3.0]])


def _causal(q: np.ndarray = Q):
    S = q @ K.T / np.sqrt(2.0)
    masked = np.where(np.triu(np.ones((3, 3), bool), 1), -np.inf, S)
    E = np.exp(masked - masked.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return S, masked, A, A @ V


def _rows(M: np.ndarray) -> str:
    return "\n".join("  [" + ", ".join("-inf" if np.isneginf(x) else f"{x:.4f}" for x in r) + "]," for r in M)


def _doc(S_text: str | None = None, q: np.ndarray = Q) -> str:
    S, masked, A, O = _causal(q)
    lit = lambda M: "[" + ", ".join("[" + ", ".join(f"{x:g}" for x in r) + "]" for r in M) + "]"
    return (f"Causal attention, one head, d_k = 2.\n\nQ = {lit(q)}\nK = {lit(K)}\nV = {lit(V)}\n\n"
            f"Scaled scores before the mask:\n\nscores = [\n{S_text or _rows(S)}\n]\n\n"
            f"After the causal mask:\n\nmasked = [\n{_rows(masked)}\n]\n\n"
            f"Weights:\n\nweights = [\n{_rows(A)}\n]\n\nOutput:\n\noutput = [\n{_rows(O)}\n]\n")


def test_the_clean_document_checks_clean_and_judges_the_scores_before_the_mask():
    r = check_document(_doc(), name="premask.txt")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 36                      # Q, K, V aside: the scores before the mask are counted too


@pytest.mark.parametrize("i, j", [(0, 2), (1, 2), (2, 0)])   # above the diagonal (masked later) and below it
def test_a_slip_in_the_scores_before_the_mask_is_found_on_its_line(i, j):
    S = _causal()[0]
    printed = S.copy()
    printed[i, j] = round(S[i, j], 4) + 0.0200   # a wrong digit, 0.02 off
    text = _doc(_rows(printed))
    line = text.splitlines().index(_rows(printed).splitlines()[i]) + 1
    r = check_document(text, name="premask.txt")
    errs = [f for f in r.errors if f.line == line]
    assert len(errs) == 1 and len(r.errors) == 1, [f.describe() for f in r.errors]
    assert errs[0].step == "scale"
    assert f"{S[i, j]:.4f}" in errs[0].describe()


def test_scores_printed_after_the_mask_with_a_fill_are_not_read_as_live_scores():
    S, masked, A, O = _causal()
    filled = np.where(np.isneginf(masked), -1e9, masked)
    text = _doc("\n".join("  [" + ", ".join(f"{x:.4f}" if x > -1e8 else "-1e9" for x in r) + "]," for r in filled))
    r = check_document(text, name="premask.txt")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("label, node", [(r"K_{\mathrm{shared}}", "K"), (r"V_{\text{shared}}", "V"),
                                         ("K_shared", "K"), (r"A_1V_{\mathrm{shared}}", "O")])
def test_a_key_or_value_state_named_shared_is_that_state(label, node):
    assert parse_label(label).nodes == (node,)


# -- the softmax of the raw scores, printed beside the scaled one and named unscaled (claims/unscaled.py)

def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _compare_doc(label: str, weights: np.ndarray) -> str:
    A = _softmax(Q @ K.T / np.sqrt(2.0))
    lit = lambda M: "[" + ", ".join("[" + ", ".join(f"{x:g}" for x in r) + "]" for r in M) + "]"
    return (f"One head, d_k = 2, no mask.\n\nQ = {lit(Q)}\nK = {lit(K)}\nV = {lit(V)}\n\n"
            f"weights = [\n{_rows(A)}\n]\n\noutput = [\n{_rows(A @ V)}\n]\n\n"
            f"The same scores without the 1/√2, for comparison:\n\n{label} = [\n{_rows(weights)}\n]\n")


def test_weights_named_unscaled_are_judged_against_the_softmax_of_the_raw_scores():
    U = _softmax(Q @ K.T)
    clean = check_document(_compare_doc("unscaled_weights", U), name="unscaled.txt")
    assert not clean.errors, [f.describe() for f in clean.errors]
    slipped = U.copy()
    slipped[1, 0] = round(U[1, 0], 4) + 0.0300
    text = _compare_doc("unscaled_weights", slipped)
    line = text.splitlines().index(_rows(slipped).splitlines()[1]) + 1
    r = check_document(text, name="unscaled.txt")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]
    assert f"{U[1, 0]:.4f}" in r.errors[0].describe() and r.n_claims > clean.n_claims - 1


def test_only_a_label_that_says_unscaled_opens_the_unscaled_reading():
    """Weights that merely equal the softmax of the raw scores are not confirmed by it (that is the scale
    forgotten, not a comparison): the label is the identity evidence, the cells only confirm it."""
    U = _softmax(Q @ K.T)
    named = check_document(_compare_doc("unscaled_weights", U), name="unscaled.txt")
    unnamed = check_document(_compare_doc("attention_weights_2", U), name="unscaled.txt")
    assert not any("attention_weights_2" in n.what for n in named.not_checked)
    assert any("attention_weights_2" in n.what for n in unnamed.not_checked)
    # 0.03 moved between two entries of a row keeps its sum: only the unscaled reading (opened by the label)
    # finds it; the unnamed weights are held only to their rows' sums
    moved = np.round(U, 4)
    moved[1, 0] += 0.03
    moved[1, 1] -= 0.03
    assert len(check_document(_compare_doc("unscaled_weights", moved), name="unscaled.txt").errors) == 2
    assert not check_document(_compare_doc("attention_weights_2", moved), name="unscaled.txt").errors


def test_scores_printed_after_the_mask_with_zeros_are_not_read_as_live_scores():
    """Zeros where the mask is (a fill some authors print) are not the live scores, even where one live score
    happens to be 0 (q_1 · k_2 = 0 here): no finding on the zeros."""
    q = np.array([[1.0, -1.0], [0.0, 1.0], [2.0, -1.0]])
    S, masked, A, O = _causal(q)
    assert S[0, 1] == 0 and S[0, 2] != 0
    zeros = np.where(np.isneginf(masked), 0.0, masked)
    r = check_document(_doc(_rows(zeros), q), name="premask.txt")
    assert not r.errors, [f.describe() for f in r.errors]


def _head_weights_doc(A_text: str | None = None) -> str:
    S, masked, A, O = _causal()
    return (f"One head, causal, d_k = 2.\n\nQ = {Q.tolist()}\nK = {K.tolist()}\nV = {V.tolist()}\n\n"
            f"Head 1 weights:\n\n[\n{A_text or _rows(A)}\n]\n\nHead 1 output:\n\n[\n{_rows(O)}\n]\n")


def test_weights_named_after_their_head_are_the_weights_not_the_output():
    """"Head 1 weights" names the weights of head 1 (it was read as the head's output, and its rows were left
    unjudged as "labelled O but matches nothing of that name")."""
    assert parse_label("Head 1 weights").nodes == ("A",)
    assert parse_label("head_2_attention_weights").nodes == ("A",)
    assert "O" in parse_label("Head 1 output").nodes
    r = check_document(_head_weights_doc(), name="heads.txt")
    assert not r.errors and not r.not_checked, [f.describe() for f in r.findings] + [str(n) for n in r.not_checked]
    S, masked, A, O = _causal()
    rows = _rows(A).splitlines()
    slipped = rows[:]
    slipped[2] = slipped[2].replace(f"{A[2, 1]:.4f}", f"{A[2, 1] + 0.01:.4f}")
    text = _head_weights_doc("\n".join(slipped))
    r = check_document(text, name="heads.txt")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln == slipped[2])
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
