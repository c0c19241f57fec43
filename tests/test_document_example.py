"""The seed document's worked example, number by number, at its printed 4 decimals."""

import numpy as np
import pytest

import mha

# Every matrix the document prints, transcribed from it (4 decimals), except O^(1) row 3,
# O_concat row 3 and Y row 3: the document prints 0.7518 there; see test_the_document_rounding_slip.
DOC = {
    "X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
    "Q1": [[1, 0], [0, 1], [1, 1]],
    "Q2": [[1, 0], [0, 1], [0, 0]],
    "QKt1": [[1, 0, 1], [0, 1, 1], [1, 1, 2]],
    "S1": [[0.7071, 0, 0.7071], [0, 0.7071, 0.7071], [0.7071, 0.7071, 1.4142]],
    "A1": [[0.4011, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], [0.2483, 0.2483, 0.5035]],
    "O1_rows_1_2": [[0.8022, 0.5989], [0.5989, 0.8022]],
    "QKt2": [[1, 0, 0], [0, 1, 0], [0, 0, 0]],
    "S2": [[0.7071, 0, 0], [0, 0.7071, 0], [0, 0, 0]],
    "A2": [[0.5035, 0.2483, 0.2483], [0.2483, 0.5035, 0.2483], [0.3333, 0.3333, 0.3333]],
    "O2": [[0.5035, 0.2483], [0.2483, 0.5035], [0.3333, 0.3333]],
}


@pytest.fixture(scope="module")
def t():
    return mha.trace(mha.DOCUMENT_EXAMPLE)


def at4(a):
    return np.round(np.asarray(a, dtype=float), 4)


def test_projections_are_identity(t):
    for M in (t.Q, t.K, t.V):
        np.testing.assert_array_equal(M[0], DOC["X"])
    assert t.config.weights_identity == ("W_Q", "W_K", "W_V", "W_O")


def test_split_into_heads(t):
    for M in (t.Qh, t.Kh, t.Vh):
        np.testing.assert_array_equal(M[0, 0], DOC["Q1"])
        np.testing.assert_array_equal(M[0, 1], DOC["Q2"])


@pytest.mark.parametrize("h", [0, 1])
def test_scores_scaled_softmax(t, h):
    n = str(h + 1)
    np.testing.assert_array_equal(t.QKt[0, h], DOC["QKt" + n])
    np.testing.assert_array_equal(at4(t.S[0, h]), DOC["S" + n])
    np.testing.assert_array_equal(at4(t.A[0, h]), DOC["A" + n])
    np.testing.assert_allclose(t.A[0, h].sum(axis=-1), 1.0, atol=1e-15)


def test_head_outputs(t):
    np.testing.assert_array_equal(at4(t.O[0, 0, :2]), DOC["O1_rows_1_2"])
    np.testing.assert_array_equal(at4(t.O[0, 1]), DOC["O2"])


def test_concat_and_output(t):
    expected = np.hstack([at4(t.O[0, 0]), DOC["O2"]])
    np.testing.assert_array_equal(at4(t.O_concat[0]), expected)
    np.testing.assert_array_equal(t.Y, t.O_concat)          # W_O = I, no bias


def test_the_document_rounding_slip(t):
    """The document prints O^(1) row 3 as [0.7518, 0.7518]: it added the rounded
    weights 0.2483 + 0.5035.  The exact value is 0.75174..., which rounds to 0.7517."""
    # closed form: scores [1, 1, 2] / sqrt 2 against V^(1) rows [1, 0], [0, 1], [1, 1] give (1 + e^a) / (2 + e^a)
    e = np.exp(1 / np.sqrt(2))
    exact = t.O[0, 0, 2]
    np.testing.assert_allclose(exact, [(1 + e) / (2 + e)] * 2, rtol=1e-15)
    assert list(at4(exact)) == [0.7517, 0.7517]
    # how the slip arises: the weights mha computes, rounded to the document's 4 decimals, then added
    w = at4(t.A[0, 0, 2])
    assert list(w) == [0.2483, 0.2483, 0.5035] and at4(w[0] + w[2]) == 0.7518 != at4(exact[0])
    for M in (t.O_concat, t.Y):                           # it propagates to O_concat and Y row 3
        assert list(at4(M[0, 2, :2])) == [0.7517, 0.7517]


def test_uniform_row_of_head_2(t):
    # Scores [0, 0, 0] give the uniform distribution 1/3 each.
    np.testing.assert_allclose(t.A[0, 1, 2], [1 / 3] * 3, rtol=0, atol=1e-15)


def test_closed_form_values(t):
    # A^(1) row 1 is softmax([1, 0, 1] / sqrt 2): checked against the closed form.
    e = np.exp(1 / np.sqrt(2))
    np.testing.assert_allclose(t.A[0, 0, 0], [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)], rtol=1e-15)


def test_dimension_table(t):
    table = {row["symbol"]: row["shape"] for row in t.shape_table()}
    assert table["X"] == [3, 4]
    assert table["Q"] == [3, 4]
    assert table["Q^(h)"] == [3, 2]
    assert table["Q^(h) K^(h)T"] == [3, 3]
    assert table["A^(h)"] == [3, 3]
    assert table["O^(h) = A^(h) V^(h)"] == [3, 2]
    assert table["O_concat"] == [3, 4]
    assert table["Y"] == [3, 4]
