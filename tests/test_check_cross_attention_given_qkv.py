r"""Cross-attention from given matrices, `Q_dec` (two target positions) against `K_enc` and `V_enc` (four source
positions), with the printout as comments (an outside trial's lecture notes, t251c).  The names with a sequence's
subscript named nothing, so the checker started from one query of the prose, and the 2×4 weights and 2×2 context
matched no shape of it: a slipped context entry went unreported.  Q, K or V with the subscript of the sequence it
comes from (dec, enc, src, tgt, memory) is Q, K or V, T queries against S keys; X_enc stays unnamed, as before.
My own numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document
from mha.check.labels import parse_label


def _page(o22="0.8044"):
    return "\n".join([
        "## Cross-attention", "",
        "```python",
        "Q_dec = np.array([[1., 0.],          # 2 target positions",
        "                  [0., 2.]])",
        "K_enc = np.array([[ 1., 0.],         # 4 source positions",
        "                  [ 0., 1.],",
        "                  [ 1., 1.],",
        "                  [-1., 0.]])",
        "V_enc = np.array([[0.,  1.],",
        "                  [1.,  0.],",
        "                  [2.,  2.],",
        "                  [1., -1.]])",
        "A = softmax(Q_dec @ K_enc.T / np.sqrt(2))",
        "print(A)",
        "# [[0.3655 0.1802 0.3655 0.0889]",
        "#  [0.0978 0.4022 0.4022 0.0978]]",
        "print(A @ V_enc)",
        "# [[1.     1.0076]",
        f"#  [1.3044 {o22}]]",
        "```", ""])


def test_names_with_a_sequence_subscript():
    for text, node in (("Q_dec", "Q"), ("K_{enc}", "K"), ("V_src", "V"), ("q_tgt", "Q")):
        assert parse_label(text).nodes == (node,)
    assert parse_label("X_enc") is None


def test_the_clean_cross_attention_checks_clean():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.configuration["mode"].startswith("starts from Q, K, V given")
    assert report.n_numbers >= 12


def test_a_slipped_context_entry_is_found():
    page = _page(o22="0.8404")
    assert error_places(page) == [(line_of(page, "0.8404"), "0.8404")]
