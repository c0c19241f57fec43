"""A power written with a superscript digit after a number, `8192² = 67,108,864` (t277b): the lexer's number
pattern refused a number followed by a word character, and `²` is one, so the number fell apart into single
characters and the line was never read.  Superscripts after a letter (d², e¹·⁴¹) were read already.

My own lines."""

import pytest

from check_helpers import clean_report, error_findings


def _page(line: str) -> str:
    return f"# The score matrix grows with the square\n\n```\n{line}\n```\n"


@pytest.mark.parametrize("line", [
    "Sequence length 8192:   8192²   = 67,108,864 elements",
    "n = 4096: n² = 4096² = 16,777,216 scores",
    "10⁹ × 2 = 2,000,000,000 bytes",
])
def test_right_powers_hold(line):
    assert clean_report(_page(line)).n_numbers >= 1


@pytest.mark.parametrize("line, printed", [
    ("Sequence length 8192:   8192²   = 67,708,864 elements", "67708864"),
    ("n = 4096: n² = 4096² = 16,777,316 scores", "16777316"),
    ("10⁹ × 2 = 3,000,000,000 bytes", "3000000000"),
])
def test_slipped_powers_are_found(line, printed):
    found = error_findings(_page(line))
    assert [f.printed for f in found] == [printed]
