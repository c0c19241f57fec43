"""A time worked out as an amount over a rate, as notes on serving models do: a decode step reads every weight once
(`140 GB / 3.35 TB/s ≈ 42 ms`), a prefill does its operations at the chip's throughput (`... FLOPs / 989 TFLOP/s`).
The reader left both sides as words, and a page of such lines alone was refused as holding no numbers.  So were a
size over a size and a time over a time, counts of what fits (`9 GB / 0.5 GB per request ≈ 18`, t277b) and
speed-ups (`120 ms / 40 ms = 3x`).

My own lines; the times are worked out here."""

import pytest

from check_helpers import clean_report, error_findings


def _page(line: str) -> str:
    return f"# How long a step takes\n\n{line}\n"


_DECODE = 140e9 / 3.35e12 * 1e3                   # 41.79 ms
_PREFILL = 2 * 7e9 * 4096 / 989e12 * 1e3          # 57.98 ms


@pytest.mark.parametrize("line", [
    f"Decode step: 140 GB / 3.35 TB/s ≈ {_DECODE:.0f} ms per token.",
    f"Reading them all takes 140 GB / 3.35 TB/s ≈ {_DECODE:.1f} ms.",
    f"Decode: $\\frac{{140 \\text{{ GB}}}}{{3.35 \\text{{ TB/s}}}} \\approx {_DECODE:.0f} \\text{{ ms}}$",
    "Decode: `140 GB / 3.35 TB/s ≈ 40 ms`",                      # a round 40: the 5% and its rounding
    f"Prefill: 2 × 7 × 10^9 × 4096 FLOPs / 989 TFLOP/s ≈ {_PREFILL:.0f} ms.",
    "Time = 16 GB / 2 TB/s = 8 ms",
])
def test_right_times_hold(line):
    assert clean_report(_page(line)).n_numbers >= 1


@pytest.mark.parametrize("line, printed, said", [
    ("Decode step: 140 GB / 3.35 TB/s ≈ 52 ms per token.", "52", "140 GB / 3.35 TB/s is 41.8 ms"),
    ("Decode: $\\frac{140 \\text{ GB}}{3.35 \\text{ TB/s}} \\approx 62 \\text{ ms}$", "62", "is 41.8 ms"),
    ("Prefill: 2 × 7 × 10^9 × 4096 FLOPs / 989 TFLOP/s ≈ 80 ms.", "80", "989 TFLOP/s is 58 ms"),
    ("Time = 16 GB / 2 TB/s = 12 ms", "12", "is 8 ms"),
])
def test_slipped_times_are_found(line, printed, said):
    found = error_findings(_page(line))
    assert [f.printed for f in found] == [printed]
    assert said in found[0].cause


def test_a_time_far_beyond_a_slip_is_left_alone():
    # 7 s for 7 ms: some other quantity (per batch, per prompt) as far as the line shows
    assert error_findings(_page("Decode: 14 GB / 2 TB/s = 7 s for the prompt.")) == []


@pytest.mark.parametrize("line", [
    "   9 GB / 0.5 GB per request ≈ 18 requests at once",
    "Speed-up: 100 ms / 30 ms ≈ 3.3x",
    "Fits: 80 GB / 3 GB = 26 sequences",             # a count of what fits, cut down
    "Fits: 80 GB / 512 MB = 160 sequences",          # 80 GiB over 512 MiB
])
def test_right_counts_from_quotients_hold(line):
    assert clean_report(_page(f"```\n{line}\n```")).n_numbers >= 1


@pytest.mark.parametrize("line, printed, said", [
    ("   9 GB / 0.5 GB per request ≈ 13 requests at once", "13", "is 18"),
    ("Speed-up: 120 ms / 40 ms = 4x", "4", "120 ms / 40 ms is 3"),
    ("Fits: 80 GB / 2 GB = 50 sequences", "50", "is 40"),
])
def test_slipped_counts_from_quotients_are_found(line, printed, said):
    found = error_findings(_page(f"```\n{line}\n```"))
    assert [f.printed for f in found] == [printed]
    assert said in found[0].cause
