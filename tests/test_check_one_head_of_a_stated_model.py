"""A page that states the model's sizes (`d_model=4`, `num_heads=2`) and then works one head only, with Q, K and V
two numbers wide (`head_dim=2`):

    We use a tiny model with `d_model=4` and `num_heads=2` ... one head (`head_dim=2`):
    Q = [[...], [...], [...]]      (3 × 2)

The stated two heads were taken for this Q's heads, each one number wide, and offered as "H = 2 (stated)".  On a
field page whose weights were wrong (fieldD-04) the climb stayed there (two heads unscaled explained a few numbers
by chance), so its scaled weights were never judged against its Q, K and V; this page, whose weights are right,
only shows the reading offered.  A stated head count whose heads would not be `head_dim` wide is the model's, not
the matrices' at hand (`infer/candidates.py`, `head_options`; `head_dim=2` in prose is read as d_k,
`readers/builder.py`).  My own numbers and recomputation."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document

Q = np.array([[0.6, -0.2], [0.1, 0.8], [-0.5, 0.4]])
K = np.array([[0.3, 0.7], [-0.4, 0.2], [0.9, -0.1]])
V = np.array([[1.0, 0.5], [-0.5, 1.5], [0.2, -0.8]])
TOKENS = ["we", "like", "tea"]


def _weights():
    s = Q @ K.T / np.sqrt(2)
    s[np.triu_indices(3, 1)] = -np.inf
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _m(name, M):
    rows = ",\n".join(" " * (len(name) + 4) + "[" + ", ".join(f"{x:.1f}" for x in r) + "]" for r in M)
    return f"{name} = [" + rows.lstrip() + "]"


def _page(cell=None):
    A = _weights()
    cells = [[f"{x:.2f}" for x in r] for r in A]
    if cell:
        (i, j), text = cell
        cells[i][j] = text
    s3 = Q[2] @ K.T
    lines = ["# One head of a tiny model", "",
             "We use a tiny model with `d_model=4` and `num_heads=2`.  Below is one head only, after the",
             "projection (`head_dim=2`), for the three tokens *we like tea*:", "", "```",
             _m("Q", Q), "", _m("K", K), "", _m("V", V), "```", "",
             "Scores of *tea* against every token (dot products):", "", "```"]
    for t, k, x in zip(TOKENS, K, s3):
        lines.append(f"score(tea→{t}) = [{Q[2, 0]:.1f}, {Q[2, 1]:.1f}] · [{k[0]:.1f}, {k[1]:.1f}] = "
                     f"{Q[2, 0] * k[0]:.2f} + {Q[2, 1] * k[1]:.2f} = {x:.2f}")
    lines += ["```", "", "Divided by `sqrt(head_dim)` ≈ 1.414:", "", "```",
             "scaled = [" + ", ".join(f"{x:.3f}" for x in s3 / np.sqrt(2)) + "]", "```", "",
             "A causal mask hides the future tokens.  For our three tokens, the complete attention weight matrix:",
             "", "```", "        │ we     like   tea", "────────┼─────────────────────"]
    lines += [f"{t:<8}│ " + "   ".join(c) for t, c in zip(TOKENS, cells)]
    lines += ["```", ""]
    return "\n".join(lines)


def test_the_clean_page_is_one_scaled_causal_head():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.findings]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert r.configuration["H"] == "H = 1"
    assert r.configuration["scale"] == "1/√d_k"
    assert r.configuration["mask"] == "causal"
    assert r.n_numbers >= 15                  # the scores, the scaled scores and the table's weights
    # the model's two heads are no reading of these 2-wide matrices, stated or not (they were "H = 2 (stated)")
    assert not any("H = 2" in e for e in r.evidence), r.evidence


def test_a_slipped_weight_in_the_table_is_found():
    A = _weights()
    wrong = f"{A[1, 0] + 0.1:.2f}"
    page = _page(((1, 0), wrong))
    errs = error_findings(page)
    assert [f.line for f in errs] == [line_of(page, "like    │")], [f.message for f in errs]
    assert errs[0].printed == wrong
