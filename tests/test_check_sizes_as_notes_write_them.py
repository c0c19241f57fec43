"""Sizes and counts as notes on inference write them (t272a, t272c), each form once right and once slipped:

- a static site's KaTeX shortcode (`{% katex(block=true) %} ... {% end %}`): read as prose, `\\cdot` was no
  product, and `2 \\cdot 2 \\cdot 64 \\cdot 8192^2 = 17,179,869,184` was judged against 8192² alone (a false
  finding); it is TeX;
- `= 4 \\text{ GB per layer}`: the words after the unit hid the result, so any number passed;
- `KV budget 22.08 − 8.40 − 1.60 = 12.08 GB`: words, then a difference of decimals, were one label;
- `2 × 28 × 8 × 128 × 2 bytes (fp16) = 114,688 bytes`: a remark in brackets after the unit hid the product;
- `= 295 TB and that is clearly impossible`: a sentence going on after the size hid it;
- `  - 2 × (512 + 512) = 2,048` in a plain fence under `Layer Norms (2):`: the bullet was read as a minus (a
  false finding).

My own model sizes throughout."""

from check_helpers import error_findings

_PAGE = """# Sizes of a small model

The flops of one token through the projections:

{{% katex(block=true) %}}
2 \\cdot 2 \\cdot 48 \\cdot 4096^2 = {flops}
{{% end %}}

$$128 \\times 32 = {layer} \\text{{ GB per layer}}$$

KV budget 22.08 − 8.40 − 1.60 = {budget} GB

```
per token: 2 × 28 × 8 × 128 × 2 bytes (fp16) = {token} bytes
```

Caching every pair would take 96 × 96 × 32 GB = {pairs} TB and that is clearly impossible.

```
Layer Norms (2):
  - 2 × (512 + 512) = {norms}
  - 2 × 512 = 1,024
```
"""

_RIGHT = dict(flops="3,221,225,472", layer="4", budget="12.08", token="114,688", pairs="295", norms="2,048")


def _page(**slip):
    return _PAGE.format(**{**_RIGHT, **slip})


def test_every_form_holds_when_right():
    assert error_findings(_page()) == []


def test_each_slip_is_found_on_its_line():
    cases = [("flops", "3,221,825,472", 6), ("layer", "9", 9), ("budget", "12.68", 11),
             ("token", "114,088", 14), ("pairs", "395", 17), ("norms", "2,148", 21)]
    for name, value, line in cases:
        found = error_findings(_page(**{name: value}))
        assert [(f.line, f.printed) for f in found] == [(line, value.replace(",", ""))], (name, found)


# a size in a larger unit is an estimate under `≈` (5%), but every count of bytes to the kilobyte is tried, so an `=`
# line is held to 1% beyond its printed digits (t272b 08-b: `8192 × 57,344 = 489.8` MB for 469.8)
_CONVERTED = """## KV cache of one long context

The cache for 8192 tokens takes $8192 \\times 57{{,}}344 = {exact}$ MB, read at 1008 GB/s.

Per layer: 8192 × 7168 bytes = {glued} MB.

Roughly $8192 \\times 57{{,}}344 \\approx {rough}$ MB in all.
"""


def test_a_converted_size_holds_to_one_percent_under_an_equals_sign():
    assert error_findings(_CONVERTED.format(exact="469.8", glued="58.7", rough="470")) == []
    assert error_findings(_CONVERTED.format(exact="448", glued="56", rough="448")) == []      # in MiB
    found = error_findings(_CONVERTED.format(exact="489.8", glued="58.7", rough="470"))
    assert [(f.line, f.printed) for f in found] == [(3, "489.8")]
    found = error_findings(_CONVERTED.format(exact="469.8", glued="61.2", rough="470"))
    assert [(f.line, f.printed) for f in found] == [(5, "61.2")]


def test_a_rough_size_keeps_its_leeway():
    assert error_findings(_CONVERTED.format(exact="469.8", glued="58.7", rough="489.8")) == []


# counts named among the factors with no size per element (t273d page 01): `32 layers × 8 batch × 150 × 3000 ≈
# 0.46 GB` sums up a calculation worked in full elsewhere; the line says no bytes per element, so it is no claim
# that the product of its counts is the size (the full line, `× 2` bytes included, is judged)
_SUMMARY = """## Cross-attention cache

Cross attention = 32 × 8 × 150 × 3000 × 2 ≈ {full} GB

- Example: 32 layers × 8 batch × 150 × 3000 ≈ {summary} GB
"""


def test_a_summary_of_counts_is_no_size_claim():
    assert error_findings(_SUMMARY.format(full="0.23", summary="0.23")) == []
    found = error_findings(_SUMMARY.format(full="0.46", summary="0.46"))
    assert [(f.line, f.printed) for f in found] == [(3, "0.46")]


# a product typed with the letter x (`32 x 4096 x 2`), three numbers or more, and a remark after an arrow
# (`= 43 GB ← fits`) (t273b 03, 07, 08): the x's were names and the arrow hid the result, so the lines counted as
# claims that held while nothing was checked
_TYPED = """## Cache sizes typed in plain text

per token: 32 x 4096 x 2 = {token}

KV: 2 × 80 × 8 × 128 × 2 × 4096 × 32 = {total} GB ← fits on one card

A 3 x 4 matrix times a 4 x 2 one gives a 3 x 2 result.
"""


def test_typed_products_and_remarks_hold_when_right():
    assert error_findings(_TYPED.format(token="262144", total="43")) == []


def test_typed_products_and_remarks_are_judged():
    found = error_findings(_TYPED.format(token="272144", total="43"))
    assert [(f.line, f.printed) for f in found] == [(3, "272144")]
    found = error_findings(_TYPED.format(token="262144", total="84"))
    assert [(f.line, f.printed) for f in found] == [(5, "84")]
