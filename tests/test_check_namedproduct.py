"""A product stated by name (`Q = X W_Q = [...]`), its factors printed just before it: a printout that is not
that product is the author's own arithmetic slip, even when every entry is wrong (claims/namedproduct.py); another
reading of the same factors (a transposed weight, the factors swapped, a scale) or a configuration that explains
the printout keeps it unjudged."""

from pathlib import Path

import numpy as np

from mha.check import check_document
from mha.check.claims.namedproduct import _factors, _other_readings

CORPUS = Path(__file__).resolve().parent / "check_corpus"
DOC = (CORPUS / "md_named_products_by_hand.md").read_text(encoding="utf-8")
WRONG_Q = ("0.56 & 0.72 \\\\ 0.81 & 0.40 \\\\ 0.61 & 0.63", "0.64 & 0.31 \\\\ 0.47 & 0.58 \\\\ 0.72 & 0.26")


def _errors(text):
    return [f for f in check_document(text, fmt="md").findings if f.severity == "error"]


def test_the_clean_document_checks_clean():
    assert not _errors(DOC)


def test_a_projection_wrong_in_every_entry_is_one_finding_on_its_line():
    errs = _errors(DOC.replace(*WRONG_Q))
    assert [(f.line, f.step) for f in errs] == [(16, "projection")], [f.describe() for f in errs]
    assert "X W_Q" in errs[0].cause and "6 of 6" in errs[0].cause


def test_the_scores_computed_from_the_right_projection_are_not_blamed():
    # S follows the true Q, not the wrong printout: the configuration explains it, so only Q is found
    errs = _errors(DOC.replace(*WRONG_Q))
    assert [f.line for f in errs] == [16], [f.describe() for f in errs]


def test_another_example_between_the_factor_and_the_product_unbinds_the_name():
    text = DOC.replace("## Step 2: the projections", "## Another example\n\n## Step 2: the projections")
    r = check_document(text.replace(*WRONG_Q), fmt="md")
    assert not any("X W_Q" in (f.cause or "") for f in r.findings), [f.describe() for f in r.findings]
    # the wrong Q is still seen: not judged as that product, it is "not checked" on its own line (18 here)
    assert any(n.line == 18 and "Q" in n.reason for n in r.not_checked), [(n.line, n.reason) for n in r.not_checked]


def test_names_of_a_product():
    assert [s for s, _ in _factors("X W_Q")] == ["X", "W_Q"]
    assert [s for s, _ in _factors("X \\cdot W_Q")] == ["X", "W_Q"]
    assert [r.transposed for _, r in _factors("Q K^T")] == [False, True]
    assert _factors("QK^T/\\sqrt{d_k}") is None and _factors("softmax(S)") is None and _factors("X W_Q W_O") is None


def test_a_transposed_weight_or_a_scale_is_another_reading():
    x = np.array([[1.0, 0.0, 0.5], [0.2, 0.8, 0.0], [0.4, 0.4, 1.0]])
    w = np.array([[0.3, 0.1, 0.6], [0.5, 0.2, 0.0], [0.1, 0.7, 0.4]])
    z, h = np.zeros((3, 3)), np.full((3, 3), 0.005)
    assert _other_readings(x, z, w, z, np.round(x @ w.T, 2), h) == 9        # W stored as out x in
    assert _other_readings(x, z, w, z, np.round(x @ w / 2, 2), h) == 9      # a scale the label leaves out
    assert _other_readings(x, z, w, z, np.round(w @ x, 2), h) == 9          # the factors swapped
    assert _other_readings(x, z, w, z, np.round(x @ w + 0.37, 2), h) < 3    # none of these



def test_an_input_said_to_be_rounded_is_not_taken_as_exact():
    # a one-decimal X typed as the example's input is multiplied as printed; X ≈ [...] stands for longer values
    from mha.check.claims.namedproduct import _given
    from mha.check.readers import read_document

    def x_slack(text):
        x = next(a for a in read_document(text, "md").arrays if a.label == "X")
        return float(_given(x, np.full((3, 3), 0.05)).max())
    assert x_slack(DOC) == 0.0
    assert x_slack(DOC.replace("X = \\begin{bmatrix} 0.6", "X \\approx \\begin{bmatrix} 0.6")) == 0.05
