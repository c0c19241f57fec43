"""A slip in printed scores that are the check's start, on a page whose weights are right.

The page prints token embeddings and position encodings (its inputs are their sum, never printed), the scores
X·Xᵀ, the softmax weights and the outputs.  The check starts from the printed scores.  One score had its digits
swapped (0.9150 → 0.9510); the weights after it are the softmax of the true score.  Before, the check took the
slipped score as given and blamed every weight of that row: five false findings on a correct line, as on a
notebook of outside trial t233c.  The repair of a start (infer/search.py) now accepts a usual slip undone when the
printed weights independently give that value back, however long the page: one finding, on the score.

My own numbers, from a seeded generator below."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document

rng = np.random.default_rng(11)
E = np.round(rng.uniform(-1, 1, (5, 6)), 2)
P = np.round(rng.uniform(-0.5, 0.5, (5, 6)), 2)
X = E + P
S = X @ X.T
W = np.exp(S - S.max(1, keepdims=True))
W /= W.sum(1, keepdims=True)
C = W @ X


def _rows(M, d=4):
    return "\n".join("[" + ", ".join(f"{v:.{d}f}" for v in r) + "]" for r in M)


def _page(slip=None):
    scores = _rows(S)
    if slip:
        scores = scores.replace(*slip, 1)       # the first copy only: S is symmetric
    return (f"# Self-attention on five tokens, no projections\n\nThe token embeddings:\n\n```\n{_rows(E, 2)}\n```\n\n"
            f"The position encodings:\n\n```\n{_rows(P, 2)}\n```\n\nEach input row is the sum of the two.  With no "
            f"projections the scores are the inputs' dot products:\n\n```\nattention scores:\n{scores}\n```\n\n"
            f"The softmax of each row gives the attention weights:\n\n```\nattention weights:\n{_rows(W)}\n```\n\n"
            f"And the context vectors are the weighted sums of the inputs:\n\n```\n{_rows(C)}\n```\n")


def test_my_numbers_have_the_score_that_is_swapped():
    assert f"{S[0, 1]:.4f}" == "0.9150"


def test_the_clean_page_holds():
    r = check_document(_page(), fmt="md")
    assert r.ok and r.n_numbers >= 50, [f.message for f in r.findings]


def test_a_swapped_score_is_one_finding_on_the_score_not_five_on_the_weights():
    page = _page(("0.9150", "0.9510"))
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "0.9510"), "0.9510")]
    assert "swapped digits" in found[0].cause
