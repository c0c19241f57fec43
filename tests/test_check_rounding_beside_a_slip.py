"""Weights worked from rounded scores, one of which the page then prints slipped.

Outside trial t188f (a Chinese homework report): the scaled scores 2.83 and 1.41 (4/√2, 2/√2) give the weights
0.769 and 0.186, a unit off the exact 0.768 and 0.187, which is a rounding note.  With one score of a row changed
(1.41 to 1.51) the row's other weights lost that note and became errors, though the author worked them from the
right rounded scores.  The printed scores with their one slipped entry put back, rounded as its row is printed
(claims/rounding.py `_mended`), still give those weights: a note that says so, and one finding, on the score.
"""

from mha.check import check_document

PAGE = """# Two-dimensional heads

Q = [[2, 0], [0, 2], [1, 1]] and K = [[0, 2], [2, 0], [1, 1]], with d_k = 2.

$$QK^T = \\begin{bmatrix} 0 & 4 & 2 \\\\ 4 & 0 & 2 \\\\ 2 & 2 & 2 \\end{bmatrix}$$

Dividing by √2:

$$S = \\begin{bmatrix} 0 & 2.83 & 1.41 \\\\ 2.83 & 0 & 1.41 \\\\ 1.41 & 1.41 & 1.41 \\end{bmatrix}$$

The softmax of each row:

$$A = \\begin{bmatrix} 0.045 & 0.769 & 0.186 \\\\ 0.769 & 0.045 & 0.186 \\\\ 0.333 & 0.333 & 0.333 \\end{bmatrix}$$
"""

SLIPPED = PAGE.replace("2.83 & 0 & 1.41", "2.83 & 0 & 1.51")


def test_the_rounded_weights_are_notes():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and len([f for f in r.findings if f.severity == "note"]) == 4, \
        [f.describe() for f in r.findings]


def test_a_slipped_score_is_one_finding_and_the_weights_stay_notes():
    r = check_document(SLIPPED, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(9, "1.51")], [f.describe() for f in r.findings]
    notes = [f for f in r.findings if f.severity == "note" and f.line == 13]
    assert len(notes) == 4 and sum("should read" in f.describe() for f in notes) == 2, [f.describe() for f in notes]


def test_a_weight_wrong_beyond_the_rounding_is_still_found():
    r = check_document(SLIPPED.replace("0.769 & 0.045 & 0.186", "0.769 & 0.045 & 0.196"), fmt="md")
    assert (13, "0.196") in [(f.line, f.printed) for f in r.errors], [f.describe() for f in r.findings]
