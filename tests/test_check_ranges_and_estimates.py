"""Two more ways notes on serving models write numbers that are no equations (t278b):

- a range with a tilde between its ends, `范围: -128 ~ 127` (an 8-bit integer), was read as `-128 ≈ 127`;
- a parameter count said to be rough and written in powers of ten, `roughly ... = 16e9` for 16.64e9, was called a
  slip (and shown as `rounds to 2e+10`; a number in e-notation is now shown with its own power, `17e9`).

My own lines."""

import pytest

from check_helpers import clean_report, error_findings
from mha.check.numbers import Num


def _page(line: str) -> str:
    return f"# Integers and estimates\n\n{line}\n\nOne head's scores: 2 × 3 = 6\n"


@pytest.mark.parametrize("line", ["范围: -128 ~ 127", "Range of int4: -8 ~ 7"])
def test_a_range_with_a_tilde_is_no_equation(line):
    assert clean_report(_page(line)).n_claims >= 1


def test_a_rough_count_in_powers_of_ten_holds():
    line = ("The total is roughly $L \\cdot (3DF + D)$. For the given numbers, this is "
            "$48 \\cdot (3 \\cdot 4096 \\cdot 16384 + 4096) = 9.4e9$, or 9B parameters.")
    assert 48 * (3 * 4096 * 16384 + 4096) == 9663873024            # 2.8% above the rough 9.4e9
    assert clean_report(_page(line)).n_numbers >= 1


def test_a_count_off_by_more_than_an_estimate_is_found():
    line = ("The total is roughly $L \\cdot (3DF + D)$. For the given numbers, this is "
            "$48 \\cdot (3 \\cdot 4096 \\cdot 16384 + 4096) = 12e9$, or 12B parameters.")
    assert [f.printed for f in error_findings(_page(line))] == ["12e9"]


@pytest.mark.parametrize("text, x, shown", [("16e9", 16.64e9, "17e9"), ("4.85e8", 4.8512e8, "4.85e8"),
                                            ("1.5e-3", 0.00149, "1.5e-3")])
def test_a_number_in_e_notation_is_shown_with_its_power(text, x, shown):
    assert Num.parse(text).rounded(x) == shown


def test_a_sum_cut_at_a_thousands_group_is_not_judged_by_its_tail():
    # `5, 120`: a comma and a space inside 5,120 (t278a); the whole sum is right, its tail `120 + ...` is no claim
    total = 163_840_000 + 40 * (104_857_600 + 212_336_640 + 5_120 * 2) + 5_120 + 163_840_000
    line = (f"    Total = 163,840,000 + 40 × (104,857,600 + 212,336,640 + 5,120 × 2) + 5, 120 + 163,840,000"
            f" = {total:,}")
    assert error_findings(_page(f"```\n{line}\n```")) == []
    # (a line of the same page that is a slip of its own is still found)
    page = _page("```\nA: 5, 120 + 163,840,000 = 163,845,120\nB: 120 + 7 = 128\n```")
    assert [f.printed for f in error_findings(page)] == ["128"]


def test_times_of_day_are_no_arithmetic():
    # `08:00-09:00: ...` (t279a): a schedule's slots, not `00 - 09` worked out
    page = _page("```\n08:00-09:00: set up the loader\n09:00-11:00: write the kernels\n```")
    assert error_findings(page) == []
    assert [f.printed for f in error_findings(page.replace("2 × 3 = 6", "2 × 3 = 7"))] == ["7"]


def test_not_equal_is_no_equation():
    # `2048 * 4KB != 8.5MB` (an issue thread's remark): the line says the two differ; it was read as `=` and its
    # "slip" reported
    page = _page("Check: 2048 * 4KB != 8.5MB, and 2 × 4 = 8.")
    assert error_findings(page) == []
    assert [f.printed for f in error_findings(page.replace("2 × 3 = 6", "2 × 3 = 7"))] == ["7"]
