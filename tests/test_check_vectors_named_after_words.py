"""Vectors named in prose after words of their own, each in a code span, and weights written as a tuple in a text
block:

    Take the query `q = (2, 1)`, and three keys `k₁ = (1, 0)`, `k₂ = (0, 2)`, `k₃ = (1, 1)` ...
    weights ≈ (0.248, 0.248, 0.503)

Only the names right after a comma were read (`k₂`, `k₃`): "the query q" and "three keys k₁" were labels of words
with a name at their end, and `q` had no index, so no query was found, the page was "not inferred", and a slip in
its weights was missed (an outside trial's page, t233a).  The name that ends such words is the vector's
(`readers/closed.py`, `_named_last`), a bare `q` is the one query, and `weights ≈ (...)` of decimals is a row of
weights.  My own page and numbers."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document

E = np.exp(np.array([2.0, 2.0, 3.0]) / np.sqrt(2))


def _page(weights=None):
    w = weights or ", ".join(f"{x:.3f}" for x in E / E.sum())
    return "\n".join([
        "# One query, three keys", "",
        "Take the query `q = (2, 1)`, and three keys `k₁ = (1, 0)`, `k₂ = (0, 2)`, `k₃ = (1, 1)`, with `d = 2`, so "
        "`√d ≈ 1.414`.", "", "```text",
        "q·k₁ = 2(1) + 1(0) = 2.0        scaled: 2.0 / 1.414 ≈ 1.414",
        "q·k₂ = 2(0) + 1(2) = 2.0        scaled: 2.0 / 1.414 ≈ 1.414",
        "q·k₃ = 2(1) + 1(1) = 3.0        scaled: 3.0 / 1.414 ≈ 2.121", "",
        "softmax(1.414, 1.414, 2.121):",
        "  e^1.414 ≈ 4.112,  e^1.414 ≈ 4.112,  e^2.121 ≈ 8.339",
        "  sum ≈ 16.563",
        f"  weights ≈ ({w})", "```", ""])


def test_the_query_and_the_keys_are_read_and_start_the_check():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert r.n_numbers >= 20
    assert not r.not_checked, [n.reason for n in r.not_checked]


def test_a_slipped_weight_in_the_tuple_is_found():
    page = _page("0.248, 0.248, 0.530")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "weights ≈"), "0.530")], [f.message for f in errs]
