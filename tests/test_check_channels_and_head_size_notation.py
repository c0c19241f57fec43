r"""A course notebook in the notation `T = 3, C = 4, H = 2` (tokens, channels, one head's size) with its weights
stored for `X @ W_QT` (C × H) and the expected output in a sanity check, `torch.allclose(A, torch.tensor([...]))`
(an outside trial's exercise notebook, t251a).  `W_QT` named nothing, so the weights were assumed to be I, and
"H = 2" was read as two heads, which set the expected output aside as another example's.  In a line that states C,
H is one head's size; `W_QT` is W_Q in the X W orientation.  My own numbers."""

from check_helpers import code_notebook, error_findings

from mha.check import check_document
from mha.check.labels import parse_label

_SETUP = """# T = 3, C = 4, H = 2
X = torch.tensor([[1,0,1,0],[0,2,0,1],[1,1,0,0]], dtype=float)   # T x C
W_QT = torch.tensor([[1,0],[0,1],[1,0],[0,0]], dtype=float)       # C x H
W_KT = torch.tensor([[0,1],[1,0],[0,0],[1,1]], dtype=float)       # C x H
W_VT = torch.tensor([[2,0],[0,0],[0,2],[1,1]], dtype=float)       # C x H"""


def _nb(first="1.06844623"):
    check = ("# This should return True.\ntorch.allclose(A.float(), torch.tensor([[" + first + ",  0.95832587],\n"
             "        [1.66666667,  1.        ],\n        [1.26631889,  0.90957858]]))")
    return code_notebook([(_SETUP, None), ("A = attention(X @ W_QT, X @ W_KT, X @ W_VT)", None), (check, "True")])


def test_weights_stored_transposed_are_the_projections():
    assert parse_label("W_QT").nodes == ("W_Q",) and parse_label("W_VT").nodes == ("W_V",)


def test_the_expected_output_checks_clean_with_one_head_of_size_two():
    report = check_document(_nb(), fmt="ipynb")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.configuration["H"].startswith("H = 1")
    assert "printed" in report.configuration["W_Q"]


def test_a_slipped_expected_entry_is_found():
    found = error_findings(_nb(first="1.08644623"), fmt="ipynb")
    assert [f.printed for f in found] == ["1.08644623"]
