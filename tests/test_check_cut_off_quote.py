"""A weight quoted in words with its digits cut off rather than rounded (`0.880` for 0.88079708).

Outside trial t141b: the note said "rounding of the values it comes from", which is not what happened; the quote is
the printed value cut short.  The note names it (claims/arith.py), and stays a note.
"""

from mha.check import check_document

PAGE = """# Two keys

The query is $q = [1, 1]$ and the keys are $k_1 = [1, 1]$ and $k_2 = [0, 0]$, so the scores are $2$ and $0$ (no scaling).

The softmax gives $\\alpha = [0.88079708, 0.11920292]$.

Attention weight of the first key: 0.880.
"""


def test_the_cut_off_quote_is_a_note_that_says_so():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    notes = [f.describe() for f in r.findings if f.severity == "note"]
    assert len(notes) == 1 and "0.880797 cut off after 3 decimals, not rounded" in notes[0], notes

