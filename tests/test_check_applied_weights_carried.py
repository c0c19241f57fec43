"""Weights worked out on their own line, `softmax([0, 0.7071]) = [0.3302, 0.6698]`, and then carried into the
output as printed: 0.3302 × 2 = 0.6604, where the exact weight gives 0.66048.  The line is judged against its own
argument, and its rounded weights are still the ones the author goes on with, so an output that follows from them
is a note on rounding, not an error.  The page is this project's own."""

from check_helpers import error_lines

PAGE = """# Causal attention, two tokens

Use Q=K=[[1,0],[0,1]] and V=[[2,0],[0,4]], with d_k = 2.

Scores divided by √2: [[0.7071, 0], [0, 0.7071]].

After the causal mask, row 1 keeps only its first key: weights [1, 0].
Row 2 is softmax([0, 0.7071]) = [0.3302, 0.6698].

Output: [[2, 0], [OUT21, 2.6792]]
"""


def test_an_output_from_weights_worked_on_their_own_line_is_a_rounding_note():
    from mha.check import check_document
    r = check_document(PAGE.replace("OUT21", "0.6604"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == []
    notes = [f for f in r.findings if f.line == 10]
    assert len(notes) == 2 and all("follows from the rounded A and V" in f.cause for f in notes)


def test_a_slip_in_that_output_is_still_an_error():
    found = error_lines(PAGE.replace("OUT21", "0.6704"))
    assert list(found) == [10] and [f.claim for f in found[10]] == ["Y[2,1]"]
