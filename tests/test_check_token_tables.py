"""Per-token vectors drawn as a text table (readers/vectortable.py) and a batch of copies printed whole
(infer/match.py): the inputs are read, and only what they identify is judged."""

import numpy as np

from mha.check import check_document
from mha.check.readers import read_document

TABLE = """\
Word   | Query        | Key          | Value
-------+--------------+--------------+-------------
 ant   | [ 0.3,  1.0] | [ 0.5, -0.2] | [ 2.0,  0.0]
 bee   | [-0.6,  0.4] | [ 0.1,  0.7] | [ 0.0,  2.0]
 cow   | [ 0.8,  0.2] | [-0.4,  0.3] | [ 1.0,  1.0]
"""


def _arrays(text: str, fmt: str = "txt") -> dict[str, np.ndarray]:
    doc = read_document(text, fmt)
    return {a.label: np.array([[n.value for n in r] for r in a.rows]) for a in doc.arrays}


def test_a_table_of_vectors_per_token_gives_q_k_v_with_a_row_per_token():
    for text, fmt in ((TABLE, "txt"), ("```\n" + TABLE.replace("|", "│") + "```\n", "md")):
        got = _arrays(text, fmt)
        assert np.allclose(got["Query"], [[0.3, 1.0], [-0.6, 0.4], [0.8, 0.2]]), (fmt, got)
        assert np.allclose(got["Key"], [[0.5, -0.2], [0.1, 0.7], [-0.4, 0.3]])
        assert np.allclose(got["Value"], [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])


def test_a_table_whose_columns_name_no_quantity_or_hold_no_vectors_is_not_taken_for_q_k_v():
    unnamed = TABLE.replace("Query", "left ").replace("Key", "mid").replace("Value", "right")
    assert not {"Query", "Key", "Value"} & set(_arrays(unnamed))
    scalars = "Word | Query | Key\n ant | 0.3 | 0.5\n bee | -0.6 | 0.1\n"
    assert "Query" not in _arrays(scalars) or _arrays(scalars)["Query"].shape != (2, 2)


def _worked(weights_row: str) -> str:
    # scores q_i . k_j / sqrt(2), softmax by rows, then the outputs, computed independently below
    return TABLE + "\nThe attention weights, one row per word:\n\n" + weights_row


def _expected() -> tuple[np.ndarray, np.ndarray]:
    Q = np.array([[0.3, 1.0], [-0.6, 0.4], [0.8, 0.2]])
    K = np.array([[0.5, -0.2], [0.1, 0.7], [-0.4, 0.3]])
    V = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    S = Q @ K.T / np.sqrt(2)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return A, A @ V


def _matrix(M: np.ndarray) -> str:
    return "[" + ",\n ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in M) + "]\n"


def test_weights_after_a_vector_table_are_checked_and_a_wrong_one_is_found_on_its_line():
    A, O = _expected()
    clean = _worked(_matrix(A)) + "\nThe outputs:\n\n" + _matrix(O)
    r = check_document(clean, fmt="txt")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 15
    slipped = A.copy()
    slipped[1, 1] = round(A[1, 1], 4) + 0.03         # one weight off by 0.03
    text = _worked(_matrix(slipped)) + "\nThe outputs:\n\n" + _matrix(O)
    line = text.split("\n").index(_matrix(slipped).split("\n")[1]) + 1
    r = check_document(text, fmt="txt")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def _tensor(slices) -> str:
    body = ",\n\n        ".join(
        "[" + ",\n         ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in s) + "]" for s in slices)
    return "tensor([" + body + "])"


def _batch_doc(shift: float) -> str:
    """The weights of one sentence, then the outputs of a batch of two: the second a copy of the first (shift 0)
    or another example whose every value differs."""
    A, O = _expected()
    return (TABLE + "\nThe weights:\n\n" + _matrix(A) + "\nThe outputs of a batch of two:\n\n"
            + _tensor([O, O[::-1] + shift if shift else O]) + "\n")


def test_a_batch_of_copies_is_matched_as_its_one_example_and_a_batch_of_others_is_not_judged():
    copies = check_document(_batch_doc(0.0), fmt="txt")
    assert not copies.errors, [f.describe() for f in copies.errors]
    others = check_document(_batch_doc(0.37), fmt="txt")
    assert not others.errors, [f.describe() for f in others.errors]
    assert copies.n_numbers == others.n_numbers + 12          # the 12 outputs are judged only as copies
