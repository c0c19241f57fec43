"""Two readings from pages of others (final review of the eighth session), each with a page of my own.

1. A model's token ids printed as "input" and again as "output" (a copy task that worked) were taken as X, with the
   identity projections the text states for another experiment.  With one row there is one key, every weight is 1,
   and the output is the input again: the match explains nothing, yet it made the section the example's, and the
   training sizes stated there (`d_model = 64`) were judged against that X's width (16).  Such a copy no longer
   makes a section the example's (`claims/scope.py`, `_copy_of_one_key`).
2. "Guessing among N tokens gives log(1/N) ≈ 6.9": the loss −log p with its minus sign dropped, as loss prose
   writes it.  That is a note, not an arithmetic slip; a wrong magnitude is still one (`claims/arith.py`).
My own numbers."""

import math

from check_helpers import error_findings, error_places, line_of

from mha.check import check_document


def _copy_page(sizes="$d_{\\text{model}} = 64$, $h = 4$"):
    ids = "[2, 7, 11, 3, 4, 9, 30, 30, 5, 2, 21, 1, 22, 17, 27, 14]"
    return "\n".join(["# A copy task", "", "We take the projections as identities here, W_Q = W_K = I.", "",
                      "## Training on a copy task", "", f"Sizes: vocabulary 32, length 16, {sizes}, 8,192 sequences.",
                      "", "```python", 'print(f"input : {sample[0].tolist()}")', 'print(f"output: {pred.tolist()}")',
                      "```", "", f"    input : {ids}", f"    output: {ids}", ""])


def test_training_sizes_beside_a_copied_output_are_not_judged():
    assert error_findings(_copy_page()) == []


def _loss_page(value):
    return "\n".join(["# Loss at initialisation", "",
                      f"Guessing uniformly among 1,000 tokens gives log(1/1000) ≈ {value}, the loss we see at step 0.",
                      "", "A sure right guess gives log(1.0) = 0.", ""])


def test_a_loss_written_without_its_minus_sign_is_a_note():
    value = f"{-math.log(1 / 1000):.2f}"                  # 6.91
    page = _loss_page(value)
    assert error_findings(page) == []
    notes = [f for f in check_document(page, fmt="md").findings if f.severity == "note"]
    assert [(f.line, f.kind) for f in notes] == [(line_of(page, "Guessing"), "dropped_sign")], \
        [f.message() for f in notes]


def test_a_wrong_magnitude_is_still_a_slip():
    page = _loss_page("6.21")
    assert error_places(page) == [(line_of(page, "Guessing"), "6.21")]
