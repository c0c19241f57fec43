"""Cross-attention worked from two sequences: queries from the decoder's states, keys and values from the
encoder's (infer/printed_inputs.cross_sources, `key` / `value` of the core), judged like self-attention instead of
set aside as "not checked"; and the names of such products (X_dec W_Q is Q)."""

import pytest

from mha.check import check_document
from mha.check import labels as lb

CROSS = """# Cross-attention by hand

The decoder has two tokens and the encoder three. Queries come from the decoder states, keys and values from the encoder states.

Decoder states (2×4):

$$X_{dec} = \\begin{bmatrix} 1 & 0 & 1 & 0 \\\\ 0 & 2 & 0 & 1 \\end{bmatrix}$$

Encoder states (3×4):

$$X_{enc} = \\begin{bmatrix} 1 & 1 & 0 & 0 \\\\ 0 & 1 & 1 & 0 \\\\ 1 & 0 & 0 & 1 \\end{bmatrix}$$

Projections (each 4×2):

$$W_Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 0 \\\\ 0 & 1 \\end{bmatrix},\\quad
W_K = \\begin{bmatrix} 0 & 1 \\\\ 1 & 0 \\\\ 1 & 1 \\\\ 0 & 1 \\end{bmatrix},\\quad
W_V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 0 & 0 \\\\ 1 & 1 \\end{bmatrix}$$

$$Q = X_{dec} W_Q = \\begin{bmatrix} 2 & 0 \\\\ 0 & 3 \\end{bmatrix}$$

$$K = X_{enc} W_K = \\begin{bmatrix} 1 & 1 \\\\ 2 & 1 \\\\ 0 & 2 \\end{bmatrix}, \\quad V = X_{enc} W_V = \\begin{bmatrix} 1 & 1 \\\\ 0 & 1 \\\\ 2 & 1 \\end{bmatrix}$$

Scores:

$$QK^T = \\begin{bmatrix} 2 & 4 & 0 \\\\ 3 & 3 & 6 \\end{bmatrix}$$

Divide by $\\sqrt{2}$:

$$\\frac{QK^T}{\\sqrt{2}} = \\begin{bmatrix} 1.4142 & 2.8284 & 0 \\\\ 2.1213 & 2.1213 & 4.2426 \\end{bmatrix}$$

Softmax over each row:

$$A = \\begin{bmatrix} 0.1867 & 0.7679 & 0.0454 \\\\ 0.0967 & 0.0967 & 0.8066 \\end{bmatrix}$$

Output:

$$O = AV = \\begin{bmatrix} 0.2775 & 1.0000 \\\\ 1.7099 & 1.0000 \\end{bmatrix}$$
"""


def test_a_cross_attention_page_is_inferred_with_two_sequences_and_checks_clean():
    r = check_document(CROSS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.configuration["Xkv"] == "keys and values from the matrix at line 11 (cross-attention)"
    assert r.configuration["X"] == "queries from the matrix at line 7"
    assert not r.not_checked, [n.describe() for n in r.not_checked]
    assert r.n_numbers >= 40


@pytest.mark.parametrize("find, replace, line", [("0.7679", "0.7697", 33), ("1.7099", "1.7909", 37),
                                                 ("2.1213 & 4.2426", "2.1213 & 4.2462", 29),
                                                 ("3 & 3 & 6", "3 & 3 & 5", 25)])
def test_a_slip_in_cross_attention_is_found_on_its_line(find, replace, line):
    assert CROSS.count(find) == 1
    r = check_document(CROSS.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_without_a_word_for_cross_attention_two_sequences_are_not_guessed():
    """The pair of sources is a start only where the text names cross-attention: the same page retitled keeps
    the self-attention reading (and its objects that do not fit are not judged as slips)."""
    text = CROSS.replace("# Cross-attention by hand", "# Attention by hand").replace(
        "Queries come from the decoder states, keys and values from the encoder states.", "")
    r = check_document(text, fmt="md")
    assert "Xkv" not in r.configuration
    assert not [f for f in r.errors if f.line > 20], [f.describe() for f in r.errors]


@pytest.mark.parametrize("label, node", [("X_{dec} W_Q", "Q"), ("X_{tgt} W^Q", "Q"), ("X_{\\text{enc}} W^K", "K"),
                                         ("X_{src}W_V", "V"), ("X_dec @ W_q", "Q"), ("H_enc W_V", "V"),
                                         ("X W^Q", "Q")])
def test_a_projection_of_one_sequence_names_q_k_or_v(label, node):
    assert lb.parse_label(label).nodes == (node,)
