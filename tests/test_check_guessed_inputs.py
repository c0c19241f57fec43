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
