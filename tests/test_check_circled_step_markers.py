"""Worked steps numbered with circled digits right before their formula (`③$0.731×4+0.269×10=5.614$`, an outside
trial's Japanese quiz, t256a).  The circled digit hid the formula: Markdown opens no `$` after a letter or a digit,
and ③ is one.  A circled number before a formula or a number is a step's marker, read as a space.  My own numbers."""

from check_helpers import error_findings

from mha.check.readers.spacedpoints import circled_markers

_PAGE = """## Weighted sum by hand

The weights are $[0.665, 0.335]$ and the values $4$ and $10$.

①$0.665×4=2.66$　②$0.335×10=3.35$　③$2.66+3.35={total}$
"""


def test_markers_are_spaces_and_keep_the_length():
    assert circled_markers("③$1+1=2$") == " $1+1=2$"
    assert circled_markers("see ③ below") == "see ③ below"        # a marker before words stays as written


def test_the_steps_hold():
    assert error_findings(_PAGE.replace("{total}", "6.01")) == []


def test_a_slipped_total_after_a_marker_is_found():
    assert [(f.line, f.printed) for f in error_findings(_PAGE.replace("{total}", "6.10"))] == [(5, "6.10")]
