"""A size written again in another unit, and a size times a count (the note's "13 MB × 99 = 1.3 GB"): `= 524288
bytes = 512 KB` and `512 KB × 4096 = 2 GB` were no claim (a unit change stopped the comparison, a unit between
factors stopped the expression), so a slipped conversion went unjudged.  The two sides are one quantity; they agree
when some count of bytes to the kilobyte (1000 or 1024) brings them within 5% or the last printed digit, and a
near miss (within a factor of two) is a slip.  My own numbers: 32 layers, 4096 wide, FP16, 4096 tokens."""

from check_helpers import error_findings

_PAGE = """## KV cache per token

Each token keeps a key and a value in every layer:

Per token: 2 × 32 × 4096 × 2 bytes = 524288 bytes = {kb} KB.

A whole context of 4096 tokens: 512 KB × 4096 = {gb} GB.

So one token costs 2 × 32 × 4096 × 2 = 524,288 bytes ≈ {mb} MB.

Each number of FP16 takes 2 bytes, and the weights of 3.5 billion take 3.5 × 2 = 7 × 1 bytes = {bits}.
"""


def _page(kb="512", gb="2", mb="0.5", bits="7 bytes"):
    return _PAGE.format(kb=kb, gb=gb, mb=mb, bits=bits)


def test_conversions_that_agree_under_either_kilobyte_hold():
    assert error_findings(_page()) == []
    assert error_findings(_page(kb="524", gb="2.1", mb="0.52")) == []


def test_a_slipped_conversion_is_found_on_its_line():
    found = error_findings(_page(kb="612"))
    assert [(f.line, f.printed) for f in found] == [(5, "612")]
    assert "512" in found[0].cause and "524" in found[0].cause


def test_a_size_times_a_count_is_judged():
    found = error_findings(_page(gb="3"))
    assert [(f.line, f.printed) for f in found] == [(7, "3")]


def test_sides_far_apart_are_two_quantities_not_a_slip():
    # `2 bytes = 7 GB`: one number's size beside the model's, not one size rewritten with a slip (the contract
    # keeps precision before recall)
    assert error_findings(_page(bits="7 GB")) == []


def test_a_rounded_size_in_megabytes_is_judged():
    found = error_findings(_page(mb="0.6"))
    assert [(f.line, f.printed) for f in found] == [(9, "0.6")]


_TABLE = """## Cache per token by model

| model | layers | width | per token |
|---|---|---|---|
| small | 32 | 4096 | 2 × 32 × 4096 × 2 bytes = 524,288 bytes = {small} KB |
| large | 40 | 5120 | 2 × 40 × 5120 × 2 bytes = 819,200 bytes = {large} KB |
"""


def test_sizes_worked_in_table_cells_are_judged():
    assert error_findings(_TABLE.format(small="512", large="800")) == []
    found = error_findings(_TABLE.format(small="512", large="900"))
    assert [(f.line, f.printed) for f in found] == [(6, "900")]


_GLUED = """## Cache in a code block

```
cache_per_layer = 1 × 4096 × 32 × 2048 × 2 = {layer}MB (one layer)
cache_total = 536MB × 32 = {total}GB
```

Four such caches side by side would need 4 × 536MB = {four}MB.
"""


def test_sizes_glued_to_their_units_are_judged():
    # `536MB`, `17GB`: the number and its unit written together, which the reader leaves as words; and a product
    # of counts before a glued size, bytes counted (1 × 4096 × 32 × 2048 × 2 = 536,870,912 bytes)
    assert error_findings(_GLUED.format(layer="536", total="17", four="2144")) == []
    found = error_findings(_GLUED.format(layer="536", total="19", four="2144"))
    assert [(f.line, f.printed) for f in found] == [(5, "19")]
    found = error_findings(_GLUED.format(layer="586", total="17", four="2144"))
    assert [(f.line, f.printed) for f in found] == [(4, "586")]
    # the product at the end of a sentence's words
    found = error_findings(_GLUED.format(layer="536", total="17", four="2644"))
    assert [(f.line, f.printed) for f in found] == [(8, "2644")]


_TEX = r"""\documentclass{article}
\begin{document}
\section{Scores in memory}
For 256 tokens and 16 heads the scores take
\begin{equation}
16 \times 256^2 \times 4\text{ bytes} = {bytes}\text{ bytes}
\end{equation}
and a longer context takes $48 \times 12 \times 1024^2 \times 2 \text{ bytes} = {gb} \text{ GB}$.
\end{document}
"""


def test_sizes_in_tex_with_units_in_text_and_powers_are_judged():
    # `4\text{ bytes}` glues the unit to the last factor, and `256^2` is a power: a product of sizes the reader
    # leaves as words, with a bare number (the unit after it in text) or a size in another unit after it
    page = _TEX.replace("{bytes}", "4{,}194{,}304").replace("{gb}", "1.21")
    assert error_findings(page, "tex") == []
    page = _TEX.replace("{bytes}", "4{,}794{,}304").replace("{gb}", "1.21")
    assert [(f.line, f.printed) for f in error_findings(page, "tex")] == [(6, "4794304")]
    page = _TEX.replace("{bytes}", "4{,}194{,}304").replace("{gb}", "1.51")
    assert [(f.line, f.printed) for f in error_findings(page, "tex")] == [(8, "1.51")]


def test_a_power_before_a_unit_is_no_printed_size():
    # `10^9 \text{byte}` read as a size glued to its unit stopped the whole page with an internal error (outside
    # trial t268b); a power is no printed size, and huge powers are no number to multiply
    page = "# Sizes\n\nFor a 13B model, $1\\text{B} = 10^9 \\text{byte} \\simeq 1\\text{GB}$, so it takes 26GB.\n\n" \
           "And $99999999^99 \\times 2 \\text{ bytes} = 5\\text{ GB}$ overflows.\n"
    assert error_findings(page) == []
