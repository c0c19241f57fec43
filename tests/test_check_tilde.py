"""`~` for "about" in code comments and plain text: `# exp(0.5) / (exp(0.5) + exp(0)) ~ 1.649 / 2.649 ~ 0.62`.

A test script on a public page (outside trial t129e) wrote its expected values this way; the `~` was read as no
relation at all, so the comment was one long label and a slip in its sum (3.018 for 3.028) went unseen.  With
spaces on both sides, `~` is ≈ in plain text.  In TeX it stays a tie (a space), and `~10` with no space after it
is a prefix ("about ten"), not a relation.
"""

import pytest

from mha.check import check_document

SCRIPT = '''import numpy as np

# Two tokens, d_k = 2
Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 0.0], [0.0, 1.0]])
V = np.array([[2.0, 4.0], [6.0, 8.0]])

# Expected:
# Q K^T = [[1, 0], [0, 1]]
# scaled by sqrt(2) ~ 1.414 -> [[0.707, 0], [0, 0.707]]
# row 0: exp(0.707) / (exp(0.707) + exp(0)) ~ 2.028 / 3.028 ~ 0.67
# weights: [[0.67, 0.33], [0.33, 0.67]]
'''


def test_the_expected_values_hold():
    r = check_document(SCRIPT, fmt="py")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 8, r.n_numbers


@pytest.mark.parametrize("old, new", [("~ 2.028 / 3.028 ~", "~ 2.028 / 3.018 ~"), ("~ 1.414 ->", "~ 1.441 ->")])
def test_a_slip_written_after_a_tilde_is_found(old, new):
    assert old in SCRIPT
    r = check_document(SCRIPT.replace(old, new), fmt="py")
    assert any(f.line in (10, 11) for f in r.errors), [f.describe() for f in r.findings]


def test_a_tilde_with_no_space_after_is_a_prefix():
    from mha.check.readers.tokens import lex_chars
    rels = lambda s: [t.text for t in lex_chars(s, text_mode=True) if t.kind == "REL"]    # noqa: E731
    assert rels("a ~ 0.5") == ["≈"]
    assert rels("gaps of ~10 to 15") == []
    assert rels("x~y") == []
