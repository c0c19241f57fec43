"""Weights grouped by head in a code object:

    const head1 = { W_query: [[1,0,0],[0,1,0],[0,0,1]], W_key: ..., W_value: ... };
    const head2 = { W_query: [[0,0,0],[0,3,0],[0,0,0]], W_key: ..., W_value: ... };

The keys were read as the example's one W_Q, W_K and W_V, so head 2's matrices were "wrong entries" of W_Q (eight
errors on right inputs, an outside trial's page, t237a) and the two heads' concatenated output was never checked.
A key inside `headN = {...}` now names head N's weight (`readers/headobjects.py`), the page is read as two heads
with weights of their own, and a slip in the concatenated output is found.  My own embeddings and weights."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document
from mha.check.readers.headobjects import head_objects

X = np.array([[0.2, 0.1, 0.0], [1.0, 0.2, 0.1], [0.1, 0.9, 0.2], [0.9, 0.1, 0.3]])
W1 = [np.eye(3)] * 3
W2 = [np.diag([0.0, 3.0, 0.0]), np.diag([0.0, 3.0, 0.0]), np.diag([0.5, 1.0, 0.5])]


def _head(W):
    Q, K, V = (X @ w for w in W)
    s = Q @ K.T / np.sqrt(3)
    A = np.exp(s - s.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return A @ V


def _js(M):
    return "[" + ",".join("[" + ",".join(f"{x:g}" for x in r) + "]" for r in M) + "]"


def _page(out=None):
    O = np.concatenate([_head(W1), _head(W2)], axis=1)[1]
    out = out or ", ".join(f"'{x:.3f}'" for x in O)
    names = ("W_query", "W_key", "W_value")
    lines = ["# Two heads in JavaScript", "", "```javascript", f"const X = {_js(X)};", "", "const head1 = {"]
    lines += [f"  {n}: {_js(w)}," for n, w in zip(names, W1)] + ["};", "", "const head2 = {"]
    lines += [f"  {n}: {_js(w)}," for n, w in zip(names, W2)] + ["};", "```", "",
                                                                 "Output for the second token:", "", "```",
                                                                 f"Concatenated multi-head output: [ {out} ]", "```", ""]
    return "\n".join(lines)


def test_the_keys_of_a_head_object_name_that_head():
    code = "const head2 = {\n  W_query: [[1]],\n  'W_key': [[2]],\n  scale: 3,\n};\nW_value = [[4]]"
    assert head_objects(code).split("\n") == ["const head2 = {", "  head2.W_query: [[1]],", "  'head2.W_key': [[2]],",
                                              "  scale: 3,", "};", "W_value = [[4]]"]


def test_two_heads_with_weights_of_their_own_hold():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert r.configuration["H"] == "H = 2"
    assert r.n_numbers >= 6


def test_a_slip_in_the_concatenated_output_is_found():
    O = np.concatenate([_head(W1), _head(W2)], axis=1)[1]
    wrong = O.copy()
    wrong[4] += 0.05
    page = _page(", ".join(f"'{x:.3f}'" for x in wrong))
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "Concatenated"), f"{wrong[4]:.3f}")], \
        [f.message for f in errs]
