r"""A size worked out as a product whose factors say what they count: `2 (K,V) × 128 heads × 128 dim × 2 bytes ×
131072 tokens ≈ 8.6 GB per layer` (a KV cache's size in an outside trial's notes on sparse attention, t245a).  The
words after the numbers and the "(K,V)" made the product a label and "per layer" made the result one too, so a
slip in the size was missed; such a line was also filed under the scores.  The numbers of a product whose factors
are counted in words are multiplied; "per layer" says what the size is for; the step is "size".  My own numbers."""

import pytest
from check_helpers import error_findings, line_of

from mha.check import check_document


def _page(size="4.3", line=None):
    line = line or f"2 (K,V) × 64 heads × 128 dim × 2 bytes × 131072 tokens  ≈  {size} GB   per layer"
    return "\n".join([
        "## The cache of one layer", "",
        "Keys and values are kept for every token of a long context:", "",
        "```", line, "```", ""])


def test_the_clean_size_checks_clean():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers == 1


@pytest.mark.parametrize("line", [
    "2 (K,V) × 64 heads × 128 dim × 2 bytes × 131072 tokens  ≈  5.3 GB   per layer",
    "2 × 64 heads × 128 dims × 2 bytes × 131072 tokens = 5.3 GB",
])
def test_a_slipped_size_is_found_as_a_size(line):
    page = _page(line=line)
    found = error_findings(page)
    assert [(f.line, f.printed) for f in found] == [(line_of(page, "5.3"), "5.3")]
    assert found[0].step == "size"


def test_words_between_numbers_that_are_not_a_product_stay_words():
    page = _page(line="64 heads and 128 dims give 5.3 GB")
    assert error_findings(page) == []
