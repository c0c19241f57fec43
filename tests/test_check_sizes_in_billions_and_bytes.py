"""Sizes as notes on serving models write them (t276b and my own list of what the checker missed):

- a count of parameters in billions before a factor: `70B × 2 bytes = 140 GB`, `7B params × 2 bytes = 14 GB`;
- a count of bytes with a bare `B` after it: `= 131,072 B` is bytes (a right line was called wrong, read as 131,072
  billion), and the sentence goes on after it (`= 131,072 B, so ...`);
- `≈ 1 GB` for 2 GiB: a whole number under ≈ stands for its unit (0.5 to 1.5), and twice the printed size is a slip,
  not "too far apart to be one size";
- a factor that is a power (`70 × 10^9 × 2 bytes`) named whole in the finding, not as `9 × 2 bytes`.

My own lines."""

import pytest

from check_helpers import clean_report, error_findings


def _page(line: str) -> str:
    return f"# Serving arithmetic\n\n{line}\n"


@pytest.mark.parametrize("line", [
    "A 70B model in fp16 needs 70B × 2 bytes = 140 GB of weights.",
    "Weights: 7B params × 2 bytes = 14 GB.",
    "Weights: 1.5B × 4 bytes = 6 GB in fp32.",
    "The KV cache per token: 2 × 32 × 8 × 128 × 2 = 131,072 B.",
    "The KV cache per token: 2 × 32 × 8 × 128 × 2 = 131,072 B, so about 128 KB.",
    "KV cache for one sequence: 2 × 32 × 1 × 32 × 2048 × 128 × 4 bytes ≈ 2 GB.",
    "Weights: 70 × 10^9 × 2 bytes = 140 GB.",
])
def test_right_sizes_hold(line):
    assert clean_report(_page(line)).n_numbers >= 1


@pytest.mark.parametrize("line, printed, said", [
    ("A 70B model in fp16 needs 70B × 2 bytes = 150 GB of weights.", "150", "70B × 2 bytes is 140 GB"),
    ("Weights: 7B params × 2 bytes = 15 GB.", "15", "7B params × 2 bytes is 14 GB"),
    ("The KV cache per token: 2 × 32 × 8 × 128 × 2 = 151,072 B, so about 128 KB.", "151072", "gives 131072"),
    ("KV cache for one sequence: 2 × 32 × 1 × 32 × 2048 × 128 × 4 bytes ≈ 1 GB.", "1", "is 2.15 GB"),
    ("Weights: 70 × 10^9 × 2 bytes = 150 GB.", "150", "70 × 10^9 × 2 bytes is 140 GB"),
])
def test_slipped_sizes_are_found(line, printed, said):
    found = error_findings(_page(line))
    assert [f.printed for f in found] == [printed]
    assert said in found[0].cause


@pytest.mark.parametrize("line, printed", [
    ("  每头参数量 = 3 × 4096 × 128 ≈ 1.57M", None), ("  每头参数量 = 3 × 4096 × 128 ≈ 1.97M", "1.97 M"),
    ("Params: 1024 * 768 ≈ 786K", None), ("Params: 1024 * 768 ≈ 796K", "796 K"),
    ("Bytes: 2 × 4 = 8B per pair", None),           # eight bytes: the plain reading is the one the arithmetic gives
])
def test_a_magnitude_glued_to_a_result(line, printed):
    # (t279b: `≈ 1.57M` glued to its letter was left as words, so a slipped 58.3M went unread)
    page = _page(f"```\n{line}\n```")
    if printed is None:
        assert clean_report(page).n_numbers == 1
    else:
        assert [f.printed for f in error_findings(page)] == [printed]
