"""Counts of whole things, a term named by the finding that blames it, and a page saved as UTF-16 (t270a, t270c):

- `1000 + (0.35 × 2048) = 1716 tokens`: a count of tokens cut down from 1716.8; with the counted word after it, a
  whole number next to the fraction is no slip (before, only a quotient's count was let off);
- `\\frac{1793}{256} × \\frac{1793}{128} = 120` tiles: each quotient rounded up to whole tiles (8 × 15); the
  product of the bare quotients (98.1) is not what the line counts;
- `1 - \\frac{1536}{8192} = 1 - 0.1675`: compared term by term, the finding names the term it judged, not the
  whole left side;
- a Markdown file saved as UTF-16 with its byte-order mark was refused as binary data.

My own numbers throughout."""

import subprocess
import sys

from check_helpers import error_findings

_TOKENS = """## Reserving tokens

The first request used 1000 tokens, and the next one may use up to 35% of the 2048 in the window:

reserve: 1000 + (0.35 × 2048) = {reserve} tokens

The window holds 4096 / 3 = {blocks} blocks of three.
"""


def test_a_whole_count_next_to_its_fraction_holds():
    assert error_findings(_TOKENS.format(reserve="1716", blocks="1365")) == []
    assert error_findings(_TOKENS.format(reserve="1717", blocks="1366")) == []


def test_a_count_far_from_its_fraction_is_a_slip():
    found = error_findings(_TOKENS.format(reserve="1816", blocks="1365"))
    assert [(f.line, f.printed) for f in found] == [(5, "1816")]


_TILES = """## Tiles of a GEMM

A 1793 × 1793 output in tiles of 256 × 128 needs

$$\\frac{{1793}}{{256}} \\times \\frac{{1793}}{{128}} = {tiles}$$

tiles, more than the 108 SMs can take at once.
"""


def test_quotients_rounded_up_to_whole_tiles_hold():
    assert error_findings(_TILES.format(tiles="120")) == []     # 8 × 15
    assert error_findings(_TILES.format(tiles="98")) == []      # 7 × 14, cut down, or 98.1 itself


def test_a_tile_count_neither_way_is_a_slip():
    found = error_findings(_TILES.format(tiles="130"))
    assert [(f.line, f.printed) for f in found] == [(5, "130")]


_SAVING = """## What grouping the keys saves

$$\\text{{saving}} = 1 - \\frac{{1536}}{{8192}} = 1 - {share} = 81.25\\%$$
"""


def test_the_finding_names_the_term_it_judged():
    assert error_findings(_SAVING.format(share="0.1875")) == []
    found = error_findings(_SAVING.format(share="0.1675"))
    assert [f.line for f in found] == [3]
    assert "1536/8192 gives" in found[0].cause
    assert "1 -\\frac" not in found[0].cause and "1-\\frac" not in found[0].cause


def test_a_page_saved_as_utf16_is_read(tmp_path):
    page = tmp_path / "utf16.md"
    page.write_bytes(_TOKENS.format(reserve="1816", blocks="1365").encode("utf-16"))
    run = subprocess.run([sys.executable, "-m", "mha", "check", str(page)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{page}:5: error:" in run.stdout


# a table typed in plain text, a row's label and its value `50         ≈ 0` (t273a page 07): the label and the
# value are no equation; two bare numbers, 0 and one of 1 or more, are as far apart as any two are
_DECAY = """## A gradient that halves each step

```
steps       gradient
   1         0.5
   5         0.03125
  50         ≈ 0
```

Numerically, $0.5^{{5}} = {five}$.
"""


def test_a_row_label_beside_zero_is_no_equation():
    assert error_findings(_DECAY.format(five="0.03125")) == []


def test_a_slip_beside_such_a_table_is_still_found():
    found = error_findings(_DECAY.format(five="0.03725"))
    assert [(f.line, f.printed) for f in found] == [(10, "0.03725")]
