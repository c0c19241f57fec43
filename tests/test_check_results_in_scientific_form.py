"""A result in scientific form with what it counts after it (`= 1.4 \\times 10^{10} \\text{ FLOPs}`,
`= 3.4 × 10^7 bytes`): the unit word left the result as words, so the line held no number to judge.

My own lines."""

import pytest

from check_helpers import clean_report, error_findings


def _page(line: str) -> str:
    return f"# Counting the work\n\n{line}\n"


@pytest.mark.parametrize("line", [
    "FLOPs per token: $2 \\times 7 \\times 10^{9} = 1.4 \\times 10^{10} \\text{ FLOPs}$.",
    "FLOPs per token: 2 × 7 × 10^9 = 1.4 × 10^10 FLOPs.",
    "The scores: $2 \\times 4096 \\times 4096 = 3.4 \\times 10^{7} \\text{ bytes}$ in fp16.",
    "One share: $1 / 4096 = 2.44 \\times 10^{-4}$ of the row.",
])
def test_right_results_hold(line):
    assert clean_report(_page(line)).n_numbers >= 1


@pytest.mark.parametrize("line, printed", [
    ("FLOPs per token: $2 \\times 7 \\times 10^{9} = 1.6 \\times 10^{10} \\text{ FLOPs}$.", "1.6e10"),
    ("FLOPs per token: 2 × 7 × 10^9 = 1.6 × 10^10 FLOPs.", "1.6e10"),
    ("The scores: $2 \\times 4096 \\times 4096 = 3.6 \\times 10^{7} \\text{ bytes}$ in fp16.", "3.6e7"),
])
def test_slipped_results_are_found(line, printed):
    found = error_findings(_page(line))
    assert [f.printed for f in found] == [printed]
