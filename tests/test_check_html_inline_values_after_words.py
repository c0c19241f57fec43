"""Inline math on an HTML page that opens with its relation after words of its own:

    <p>The spread of the scores: $\\sigma = \\sqrt{16} = 4$</p>
    <li>Large positive scores $\\to$ probability $\\approx 1$
    <li>Tiled kernel: $\\approx 0.6$ ms ...   <li>Naive kernel: $\\approx 11$ ms ...

Each `$\\approx …$` was read as going on from the formula above it, so "≈ 1" was held against the 4 two lines up
(and "≈ 11" against "≈ 0.6"): errors on prose (an outside trial's HTML chapter, t239d).  Markdown already read such
a value as the words' own; an HTML or text page now does too (`readers/builder.py`, `_worded_inline`), while a
display that opens with "=" still goes on from the display above it.  My own page."""

from check_helpers import error_findings


def _page(root="4"):
    return "\n".join([
        "<html><body>",
        f"<p>The spread of the scores: $\\sigma = \\sqrt{{16}} = {root}$</p>",
        "<p>Without the scale, after the softmax:",
        "<ul>",
        "    <li>Large positive scores $\\to$ probability $\\approx 1$",
        "    <li>Large negative scores $\\to$ probability $\\approx 0$",
        "</ul>",
        "<ul>",
        "    <li>Tiled kernel: $\\approx 0.6$ ms (near the peak)",
        "    <li>Naive kernel: $\\approx 11$ ms (memory bound)",
        "</ul>",
        "<p>$$s = 3 + 5$$</p>",
        "<p>$$= 8$$</p>",
        "</body></html>", ""])


def test_values_after_their_own_words_are_no_continuation():
    assert error_findings(_page(), fmt="html") == []


def test_a_slipped_root_is_still_found():
    errs = error_findings(_page(root="5"), fmt="html")
    assert [f.printed for f in errs] == ["5"], [f.message for f in errs]
