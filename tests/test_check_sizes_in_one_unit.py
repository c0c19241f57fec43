"""Sizes in one unit on both sides, on a page of notes on serving with no attention numbers at all (the note's
"`4 × 50GB = 200GB` ... ends with exit 2"):

- a page whose only numbers are sizes glued to their units was refused as having nothing to check, so a slipped
  product went unreported; such lines are arithmetic all the same;
- a count times a size in the unit of the result (`4 × 536MB = 2244MB`) turns no unit, so the 5% that covers a
  kilobyte of 1000 or 1024 bytes excuses nothing: it holds to the printed digits and the size's own rounding
  (`3 × 7.1GB = 21.5GB` holds, 7.1 being anything from 7.05 to 7.15), unless the line says it is rough (`≈`);
- a finding quotes the line with the spaces it was written with (`4 × 536MB = 2244MB`, not `4*536MB=2244MB`).

My own numbers: a 13 GB model, a 536 MB cache per sequence."""

import subprocess
import sys

from check_helpers import error_findings

_PAGE = """# Serving notes

The weights take 13GB on each of 4 GPUs, that is 4 × 13GB = {weights}GB in all.

Each sequence keeps a cache of 536MB, and for four sequences: 4 × 536MB = {cache}MB.

Three copies of a 7.1GB shard: 3 × 7.1GB = {shards}GB.

Roughly, a batch of 8 takes 8 × 536MB ≈ {rough}GB.
"""


def _page(weights="52", cache="2144", shards="21.5", rough="4.3"):
    return _PAGE.format(weights=weights, cache=cache, shards=shards, rough=rough)


def test_sizes_in_one_unit_that_agree_hold():
    assert error_findings(_page()) == []
    assert error_findings(_page(shards="21.3")) == []


def test_a_near_miss_in_one_unit_is_a_slip():
    # 2244 is within 5% of 2144, which a change of unit would excuse; with MB on both sides nothing does
    found = error_findings(_page(cache="2244"))
    assert [(f.line, f.printed) for f in found] == [(5, "2244")]
    assert "2,144 MB" in found[0].cause
    assert found[0].rounded == "2144"
    found = error_findings(_page(weights="62"))
    assert [(f.line, f.printed) for f in found] == [(3, "62")]


def test_a_rough_line_keeps_its_leeway():
    # 8 × 536MB is 4.288 GB or 4.19 GiB: `≈ 4.3GB` and `≈ 4.2GB` both hold; `≈ 3.3GB` is a slip
    assert error_findings(_page(rough="4.2")) == []
    found = error_findings(_page(rough="3.3"))
    assert [(f.line, f.printed) for f in found] == [(9, "3.3")]


def test_a_slip_on_a_page_of_sizes_alone_is_reported_by_the_command(tmp_path):
    page = tmp_path / "serving.md"
    page.write_text(_page(cache="2244"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mha", "check", str(page)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{page}:5: error:" in run.stdout
    assert "4 × 536MB = 2244MB" in run.stdout
    page.write_text(_page(), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mha", "check", str(page)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "all 4 claims hold" in run.stdout


# a result glued to its unit or to a ratio's x, after arithmetic with no unit (t270c): the lexer broke `31GB` and
# `5.86x` into pieces, so the line had no result; and a finding on `= 31 GB` gave the exact value as bytes turned into
# gigabytes (3.7e-08), though the arithmetic counts in gigabytes already
_BUDGET = """# Budget for the cache

Of 80 GB, 90% may be used, and the weights take 35 GB:

KV budget: 80 × 0.9 - 35 = {glued}GB.

KV budget again: 80 × 0.9 - 35 = {spaced} GB.

The fused kernel takes 0.7 ms against 4.1 ms: a speed-up of 4.1 / 0.7 = {ratio}x over the baseline.
"""


def _budget(glued="37", spaced="37", ratio="5.86"):
    return _BUDGET.format(glued=glued, spaced=spaced, ratio=ratio)


def test_results_glued_to_a_unit_or_an_x_hold_when_right():
    assert error_findings(_budget()) == []
    assert error_findings(_budget(ratio="5.9")) == []


def test_a_slipped_result_glued_to_its_unit_is_found():
    found = error_findings(_budget(glued="31"))
    assert [(f.line, f.printed) for f in found] == [(5, "31")]


def test_a_slipped_ratio_glued_to_its_x_is_found():
    found = error_findings(_budget(ratio="5.36"))
    assert [(f.line, f.printed) for f in found] == [(9, "5.36")]


def test_a_slip_in_gigabytes_is_explained_in_gigabytes():
    found = error_findings(_budget(spaced="31"))
    assert [(f.line, f.printed) for f in found] == [(7, "31")]
    assert found[0].rounded == "37" and "gives 37" in found[0].cause
