r"""A KV-cache size worked down a column, its factors grouped in thousands on one line and the total on the next
(`= 2 × 16 × 4,096 × 8,192 × 2`, then `= 2,147,483,648 bytes`), as an outside trial's notes on grouped-query
attention write it (t246b).  Only a line whose own result grouped thousands had its commas read as separators, so
`8,192 × 2` was read as `192 × 2` and held against the total: "192*2=2147483648".  A line with two factors or more
grouped beside a multiplication sign groups thousands too.  My own numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(total="1,073,741,824"):
    return "\n".join([
        "Per layer, in fp16:", "",
        "```",
        "cache = 2 (K and V) × batch × tokens × d_model × 2 bytes",
        "      = 2 × 8 × 4,096 × 8,192 × 2",
        f"      = {total} bytes",
        "      = 1 GiB",
        "```", ""])


def test_grouped_factors_down_a_column_hold():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_slipped_total_is_found():
    page = _page("1,073,741,828")
    assert error_places(page, fmt="md") == [(line_of(page, "1,073,741,828"), "1073741828")]
