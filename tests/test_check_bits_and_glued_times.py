"""Units that change what a line's arithmetic gives (t278b, t278c):

- a time glued to its result, as code type writes it (`= 17ms`, `= 0.91s`): read now, the quotient taken as
  seconds, and a slip said in the unit written (`gives 17.28 ms`);
- bits counted and the result said in bytes, `4 × 256 bit = 128 bájt` (an eighth), and information in bits,
  `-log(1/2^4) = 4 bit` (the logarithm's base 2): both were called slips.

My own lines."""

import pytest

from check_helpers import clean_report, error_findings


def _page(line: str) -> str:
    return f"# Units\n\n{line}\n"


@pytest.mark.parametrize("line", [
    "Decode step: `140e9 / (8 * 1.2e12) = 15ms`",
    "Prefill: `2 * 7e9 * 4096 / (8 * 1.9e14 * 0.5) = 0.075s`",
    "Ez azt jelenti, hogy $8 \\times 64 \\textrm{ bit} = 64 \\textrm{ bájt}$ adat.",
    "$$I = - \\log \\left( \\frac{1}{2^5} \\right) = 5 \\textrm{ bit}.$$",
])
def test_right_lines_hold(line):
    assert clean_report(_page(line)).n_numbers >= 1


@pytest.mark.parametrize("line, printed, said", [
    ("Decode step: `140e9 / (8 * 1.2e12) = 18ms`", "18", "gives 14.58 ms"),
    ("Prefill: `2 * 7e9 * 4096 / (8 * 1.9e14 * 0.5) = 0.085s`", "0.085", ""),
    ("Ez azt jelenti, hogy $8 \\times 64 \\textrm{ bit} = 80 \\textrm{ bájt}$ adat.", "80", ""),
    ("$$I = - \\log \\left( \\frac{1}{2^5} \\right) = 6 \\textrm{ bit}.$$", "6", ""),
])
def test_slipped_lines_are_found(line, printed, said):
    found = error_findings(_page(line))
    assert [f.printed for f in found] == [printed]
    assert said in found[0].cause
