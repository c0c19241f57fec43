"""Four forms of the last trial round (t274a, on x403), each a false finding before:

- a program's progress printed line by line (`Batch 0/10` over `Batch 10/10`): no relation on either line, yet
  the two were joined as one derivation, `0/10 = 10/10`;
- `3) Give away 1/3: 67 / 3 ≈ 22`: a colon between a share and the formula that works it out equates nothing;
- `50.000^2 = 2.5 × 10^9`: a number whose dot parts thousands (Portuguese, German) read as 50 gave 2500;
- a sparse transition table shown by its first columns, a column of `...` last: its rows go on beyond the page, so
  a row summing to 0.75 is no finding.

Each is also slipped once, on a line the checker must still judge.  My own numbers."""

from check_helpers import error_findings

_PROGRESS = """# Calibrating

```
Calibration running...
  Batch 0/10
  Batch 10/10
Done.
Layer 0/32...
Layer 10/32...
```

The scale of each layer: $\\frac{{127}}{{2.54}} = {scale}$.
"""


def test_progress_counters_are_no_derivation():
    assert error_findings(_PROGRESS.format(scale="50")) == []
    found = error_findings(_PROGRESS.format(scale="60"))
    assert [(f.line, f.printed) for f in found] == [(12, "60")]


_SHARES = """## Sharing cookies

1) Start with 72 cookies.
2) Eat 5: 72 - 5 = {left}
3) Give away 1/3: 67 / 3 ≈ 22 cookies given
"""


def test_a_colon_before_a_formula_equates_nothing():
    assert error_findings(_SHARES.format(left="67")) == []
    found = error_findings(_SHARES.format(left="62"))
    assert [(f.line, f.printed) for f in found] == [(4, "62")]


_DOTS = """## Quantas combinações?

Para um vocabulário de $50.000$ palavras:

- Bigramas: $50.000^2 = {bi} \\times 10^9$ combinações
- Trigramas: $50.000^3 = 1.25 \\times 10^{{14}}$ combinações
"""


def test_a_dot_that_parts_thousands_holds():
    assert error_findings(_DOTS.format(bi="2.5")) == []


def test_a_slip_under_such_a_dot_is_found():
    found = error_findings(_DOTS.format(bi="3.5"))
    assert [f.line for f in found] == [5]


_SPARSE = """## Transition probabilities

P(show | START) = $\\frac{{4}}{{8}} = {show}$ and P(please | START) = $\\frac{{2}}{{8}} = 0.25$.

Only the first columns of the matrix are shown:

| $w_i$ \\ $w_j$ | show | me | please | ... |
|---|---|---|---|---|
| START | {show} | 0 | 0.25 | ... |
| show | 0 | 0.60 | 0.40 | ... |
| me | 0.50 | 0 | 0.50 | ... |
"""


def test_rows_of_a_table_cut_short_are_not_summed():
    assert error_findings(_SPARSE.format(show="0.50")) == []


def test_a_slip_beside_a_table_cut_short_is_found():
    found = error_findings(_SPARSE.format(show="0.60"))
    assert 3 in [f.line for f in found]
