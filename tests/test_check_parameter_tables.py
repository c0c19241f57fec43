"""A table of weights with their shapes and parameter counts (t276b): a count printed beside its shape is the
shape's product (with the bias where the layer has one), and a count off by a slip went unread.

My own table, for a small model of width 640 with 10 heads and a feed-forward width of 2560."""

import pytest

from check_helpers import clean_report, error_findings

_ROWS = {
    "q_proj": ("(640, 640)", 640 * 640),
    "k_proj": ("(640, 160)", 640 * 160),                  # grouped keys: 2 heads of 80 columns
    "ffn_in": ("(640, 2560)", 640 * 2560 + 2560),         # with its bias
    "ffn_out": ("2560 × 640", 2560 * 640),
    "norm": ("(640,)", 2 * 640),                          # weight and bias: no product to judge
}


def _page(counts: dict[str, str] | None = None, note: str = "") -> str:
    counts = counts or {}
    rows = "\n".join(f"| `{name}` | {shape} | {counts.get(name, f'{n:,}'.replace(',', ' '))} |"
                     for name, (shape, n) in _ROWS.items())
    return f"""# Where the parameters are

| Weight | Shape | # params |
|--------|-------|----------|
{rows}
{note}"""


def test_right_counts_hold():
    assert clean_report(_page()).n_numbers == 4            # the norm's count is no product of its shape


def test_counts_in_millions_hold():
    assert clean_report(_page({"q_proj": "0.41M", "ffn_in": "1.64M"})).n_numbers == 4


@pytest.mark.parametrize("name, printed, right, shown", [
    ("q_proj", "409 800", "409,600", "409,600"), ("ffn_out", "1 648 400", "1,638,400", "1,638,400"),
    ("k_proj", "0.12M", "102,400", "0.10M"),
])
def test_a_slipped_count_is_found(name, printed, right, shown):
    found = error_findings(_page({name: printed}))
    assert [(f.printed, f.rounded) for f in found] == [(printed, shown)]
    assert f"is {right}" in found[0].cause


def test_a_count_for_every_layer_is_left_alone():
    # 12 layers of q_proj: another quantity than the one shape, as far as the table says
    assert clean_report(_page({"q_proj": f"{12 * 640 * 640:,}"})).n_numbers == 3          # not judged, nor counted


_FORMULAS = """# 参数量

| 部分 | 计算 | 参数量 |
|------|------|--------|
| QKV 投影 | 640 × (640×3) | {qkv} |
| 输出投影 | 640 × 640 | 409,600 |
| **合计** | | **~1.6M** |
"""


def test_a_column_of_products_counts_like_shapes():
    assert clean_report(_FORMULAS.format(qkv="1,228,800")).n_numbers == 2
    found = error_findings(_FORMULAS.format(qkv="1,288,800"))
    assert [(f.line, f.printed) for f in found] == [(5, "1,288,800")]
