r"""Scores printed twice, raw and after the causal mask, from Q and K printed to four decimals, with a slip in the
first copy (-0.8575 for -0.8557).  The page's own value is a unit off what the rounded Q and K give (-0.85564), so
neither copy held the configuration's value to its digits and the checker blamed the later, right copy as well
("nothing printed after them tells which copy is right"; an outside trial's slipped RoPE notes, t249a).  When
neither copy holds it, the copy a unit from the configuration's value is the page's and the one many units away
holds the slip.  My own numbers (random Q and K, seed 7)."""

from check_helpers import error_places, line_of


def _page(first="-0.8557"):
    return "\n".join([
        "## Masked scores", "",
        "```",
        "q = [[0.0012, 0.2987], [-0.2741, -0.8906], [-0.4547, -0.9916]]",
        "k = [[0.0601, 1.3402], [-0.4922, -0.6205], [0.4898, 0.3569]]",
        "",
        "raw scores (q @ k.T / sqrt(2)):",
        "  [ 0.2832, -0.1315,  0.0758]",
        f"  [{first},  0.4862, -0.3197]",
        "  [-0.9591,  0.5933, -0.4077]",
        "",
        "masked scores:",
        "  [ 0.2832,  -inf,    -inf ]",
        "  [-0.8557,  0.4862,  -inf ]",
        "  [-0.9591,  0.5933, -0.4077]",
        "```", ""])


def test_the_clean_copies_check_clean():
    assert error_places(_page()) == []


def test_the_slipped_copy_alone_is_blamed():
    page = _page(first="-0.8575")
    assert error_places(page) == [(line_of(page, "-0.8575"), "-0.8575")]
