"""A product whose factors say what they count in Chinese, Japanese or Korean (`2 × 32 层 × 8 个头 × 128 维 × 2 字节`):
English pages had it read (`32 layers × 8 heads`), CJK pages were refused as holding no numbers.

My own lines."""

import pytest

from check_helpers import clean_report, error_findings

_LINES = [
    "每个 token 的 KV cache：2 × 32 层 × 8 个头 × 128 维 × 2 字节 = {total} 字节",
    "1 トークンあたり：2 × 32 層 × 8 ヘッド × 128 次元 × 2 バイト = {total} バイト",
    "토큰당 KV 캐시: 2 × 32 레이어 × 8 개 헤드 × 128 차원 × 2 바이트 = {total} 바이트",
]


def _page(line: str) -> str:
    return f"# KV cache\n\n{line}\n"


@pytest.mark.parametrize("line", _LINES)
def test_a_right_product_holds(line):
    assert clean_report(_page(line.format(total=2 * 32 * 8 * 128 * 2))).n_numbers >= 1


@pytest.mark.parametrize("line", _LINES)
def test_a_slipped_product_is_found(line):
    found = error_findings(_page(line.format(total=121072)))
    assert [f.printed for f in found] == ["121072"]
    assert "gives 131072" in found[0].cause
