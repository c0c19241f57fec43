"""A script that divides its scores by their sum (`w = s / s.sum()`, the normalisation the chapter shows before the
softmax) and pastes the printout under it.  The printout is what the code computes, yet it was called a stale
output ("mostly disagrees with its own code"), because it is not a step of the configuration (t207a, a script
with its printouts as comments).  Its own code applied to the printed scores gives it: no stale output."""

import numpy as np

from check_helpers import error_places, line_of

X = np.array([[0.8, 0.2], [0.1, 0.6], [0.4, 0.5], [0.7, 0.7], [0.3, 0.1], [0.5, 0.9]])
q = X[2]
s = X @ q


def vec(v) -> str:
    return "tensor([" + ", ".join(f"{x:.4f}" for x in v) + "])"


def script(normalised) -> str:
    w = np.exp(s) / np.exp(s).sum()
    rows = ",\n".join(f"   [{a}, {b}]" for a, b in X)
    return f"""import torch

inputs = torch.tensor(
  [
{rows}
  ]
)

query = inputs[2]
attn_scores = inputs @ query
print(attn_scores)
#{vec(s)}

attn_scores_tmp = attn_scores / attn_scores.sum()
print(attn_scores_tmp)
#{vec(normalised)}

attn_weights = torch.softmax(attn_scores, dim=0)
print(attn_weights)
#{vec(w)}
"""


def test_a_printout_its_code_gives_is_not_called_stale():
    from mha.check import check_document
    report = check_document(script(s / s.sum()), fmt="py")
    assert not [n for n in report.not_checked if "stale" in n.reason]
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_slip_in_that_printout_is_found_against_its_code():
    slipped = s / s.sum()
    slipped[1] += 0.01
    text = script(slipped)
    assert error_places(text, fmt="py") == [(line_of(text, "attn_scores_tmp)") + 1, f"{slipped[1]:.4f}")]
