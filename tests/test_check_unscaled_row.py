"""A written softmax whose weights are those of the scaled row, while the row written inside softmax() is the raw
one (claims/softmax._unscaled_root): one slip, so one finding for the row, which names the scale; and two
equations set side by side in plain text are two statements (readers/columns.column_gap), while an arrow
carries one statement on."""

from mha.check import check_document

_TOY = """# One token against three keys, d_k = 4

Raw scores of "sat" against the three keys: [1, 3, 0]. We divide by √4 = 2.

```
weights("sat") = softmax({row}) = [0.2312, 0.6285, 0.1402]
```
"""


def test_unscaled_row_inside_softmax_is_one_finding_that_names_the_scale():
    r = check_document(_TOY.format(row="[1, 3, 0]"), fmt="md")
    errors = [f for f in r.errors if f.line == 6]
    assert len(errors) == 1, [f.describe() for f in r.findings]
    assert "√4" in errors[0].cause and "not scaled" in errors[0].cause, errors[0].cause


def test_scaled_row_inside_softmax_checks_clean():
    r = check_document(_TOY.format(row="[0.5, 1.5, 0]"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 3


def test_a_weight_that_no_scale_explains_is_still_found_per_entry():
    text = _TOY.format(row="[0.5, 1.5, 0]").replace("0.6285", "0.6258")
    r = check_document(text, fmt="md")
    assert [f.line for f in r.errors] == [6], [f.describe() for f in r.errors]
    assert r.errors[0].printed == "0.6258"


_SHEET = """# Sizes

```
Sizes of the base model:
  d_model = 512       heads = 8
  d_k     = 64        √64   = {root}
```

```
standardise: z = (x - μ) / σ    →   μ=0, σ=1
```

```
x = [1.0, 2.0, 3.0, 6.0]
  μ  = (1+2+3+6)/4 = 3.0
```
"""


def test_equations_side_by_side_are_two_statements_and_an_arrow_carries_on():
    r = check_document(_SHEET.format(root="8"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    slipped = check_document(_SHEET.format(root="7"), fmt="md")
    assert [f.line for f in slipped.errors] == [6], [f.describe() for f in slipped.errors]
