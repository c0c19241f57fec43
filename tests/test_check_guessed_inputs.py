"""A guessed start is judged only where the document bears it out (claims/guessed.py): X taken as the first unnamed
matrix, or a named X whose every projection is assumed.  A large printout that all but a slip matches bears it
out, so the slip is an entry's finding; chance matches of a few one-decimal numbers do not."""

from pathlib import Path

from mha.check import check_document

CLEAN = Path(__file__).resolve().parent / "check_clean"


def test_a_slip_in_the_one_printout_that_bears_the_guess_out_is_that_entry_s():
    text = (CLEAN / "md_guessed_x_large_weights_printout.md").read_text(encoding="utf-8")
    r = check_document(text.replace("0.1667 0.1667 0.2212", "0.1667 0.2212 0.1667"), fmt="md")
    assert sorted(f.claim for f in r.errors) == ["A[2,4]", "A[2,5]"], [f.describe() for f in r.findings]
    assert not [n for n in r.not_checked if "not borne out" in n.reason]


def test_hand_picked_weights_mixing_named_inputs_are_not_judged_as_self_attention():
    text = (CLEAN / "md_hand_picked_weights_weighted_average.md").read_text(encoding="utf-8")
    r = check_document(text, fmt="md")
    assert not r.errors and any("every projection was assumed" in n.reason for n in r.not_checked), \
        [n.describe() for n in r.not_checked]


def _scores_named_notebook(weights: str) -> str:
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("query = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])\n"
                                  "key = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])\n"
                                  "value = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])"),
        nbformat.v4.new_code_cell("attention_score = softmax(query @ key.T / np.sqrt(2), axis=1)\n"
                                  "print(attention_score)",
                                  outputs=[nbformat.v4.new_output("stream", text=weights)]),
    ]
    return nbformat.writes(nb)


WEIGHTS = ("[[0.4011 0.1978 0.4011]\n [0.4011 0.4011 0.1978]\n [0.5035 0.2483 0.2483]]\n")


def test_a_printout_named_scores_whose_code_is_a_softmax_is_judged_as_weights():
    """`attention_score = softmax(...)`: the name reads as the scores, the code says weights; judged as weights, so
    a slip in one of them is found (it was set aside as a stale printout of the scores)."""
    r = check_document(_scores_named_notebook(WEIGHTS), fmt="ipynb")
    assert not r.errors and r.n_numbers >= 9, [f.describe() for f in r.findings]
    bad = check_document(_scores_named_notebook(WEIGHTS.replace("0.4011 0.1978 0.4011]\n", "0.4011 0.1987 0.4011]\n")),
                         fmt="ipynb")
    assert [(f.cell, f.line) for f in bad.errors] == [(2, 1)], [f.describe() for f in bad.findings]
