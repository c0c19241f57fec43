"""One query against a few keys, each vector named by its role in words and its token's word:

    Query (she):  [0.5, 1.0, -0.5]
    Key (dog):    [1.0, 0.0, 0.5]
    Value (dog):  [2.0, 0.0]

`Query (she)` was read as some Q with no row, so the three keys were not assembled into K: the check started from
the raw scores printed below them and could not judge those scores at all (a slip in them was no finding, and a
page with no printed scores was not inferred).  Such a name is now one token's vector (`tokenpairs.role_word_token`),
like `k_she`, and the keys, values and query are assembled in the page's order.  My own vectors and recomputation."""

import numpy as np
import pytest

from check_helpers import error_findings, line_of
from mha.check import check_document
from mha.check.tokenpairs import role_word_token

Q = [0.5, 1.0, -0.5]
KEYS = {"dog": [1.0, 0.0, 0.5], "park": [0.0, 1.0, 1.0], "ball": [0.5, 0.5, 0.0]}
VALUES = {"dog": [2.0, 0.0], "park": [0.0, 1.0], "ball": [1.0, 1.0]}


def _chain():
    K, V = np.array(list(KEYS.values())), np.array(list(VALUES.values()))
    s = K @ np.array(Q)
    z = s / np.sqrt(3)
    w = np.exp(z) / np.exp(z).sum()
    return s, z, w, w @ V


def _fmt(v, d):
    return "[" + ", ".join(f"{x:.{d}f}" for x in v) + "]"


def _page(scores=None, weights=None):
    s, z, w, o = _chain()
    lines = ["# Which word does *she* look at?", "", "```", f"Query (she):  {Q}"]
    lines += [f"Key ({t}):{' ' * (6 - len(t))}{v}" for t, v in KEYS.items()]
    lines += [f"Value ({t}):{' ' * (4 - len(t))}{v}" for t, v in VALUES.items()]
    lines += ["```", "", f"Raw scores (dot products): {scores or _fmt(s, 2)}", "",
              f"Divided by √3: {_fmt(z, 4)}", "", f"Attention weights after softmax: {weights or _fmt(w, 4)}", "",
              f"Output for *she*: {_fmt(o, 4)}"]
    return "\n".join(lines) + "\n"


def test_the_names_say_role_and_token():
    assert role_word_token("Key (dog)") == ("K", "dog")
    assert role_word_token("Query vector (\"she\")") == ("Q", "she")
    assert role_word_token("Value_ball") == ("V", "ball")
    assert role_word_token("Key (transposed)") is None      # which matrix, not which token
    assert role_word_token("Key (K)") is None


def test_the_clean_page_starts_from_the_vectors_and_checks_every_step():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.findings]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert r.n_numbers >= 11                  # scores, scaled scores, weights and the output, not just the weights


@pytest.mark.parametrize("kind", ["scores", "weights"])
def test_a_slip_in_the_scores_or_the_weights_is_found_on_its_line(kind):
    s, z, w, o = _chain()
    if kind == "scores":
        page, printed = _page(scores="[0.25, 0.55, 0.75]"), "0.55"
    else:
        wrong = f"{w[1] + 0.01:.4f}"
        page, printed = _page(weights=_fmt(w, 4).replace(f"{w[1]:.4f}", wrong)), wrong
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, printed), printed)]
