"""A product drawn under its name, its factors drawn above it the same way:

      Q · K^T = ┌                  ┐
                │  0.22  0.71  0.57 │
                ...

Nothing but the label ties the matrix to Q and K (the configuration may take K from weights the page then sets
aside: "we'll use representative values"), so an entry off the product was never judged.  The label is the
result's own arithmetic: with most entries the product of the printed factors, each other entry is a slip."""

import pytest

import mha
from mha.check import check_document

PAGE = """# Scores by hand

```
  Q = ┌                ┐
      │  0.2  0.7  0.1 │
      │  0.5  0.3  0.9 │
      │  0.8  0.4  0.6 │
      └                ┘
```

(K is taken as given here.)

```
  K = ┌                ┐
      │  0.6  0.1  0.3 │
      │  0.2  0.9  0.4 │
      │  0.7  0.5  0.8 │
      └                ┘
```

The scores:

```
  Q · K^T = ┌                   ┐
            │  0.22  0.71  0.57 │
            │  0.60  0.73  1.22 │
            │  0.70  0.76  1.24 │
            └                   ┘
```
"""


def test_the_drawn_product_checks_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("old, new, line", [("0.73  1.22", "0.78  1.22", 26), ("0.70  0.76", "0.70  0.67", 27)])
@pytest.mark.parametrize("given", [False, True])
def test_an_entry_off_the_product_is_found(old, new, line, given):
    """Inferred, the configuration's own Q and K find it; given another case (`--input`), whose Q and K are not
    these, the label alone still ties the drawing to the Q and K drawn above it."""
    config = mha.EXAMPLES["document"].data if given else None
    r = check_document(PAGE.replace(old, new), config=config, fmt="md")
    assert [f.line for f in r.errors if "0.78" in f.printed or "0.67" in f.printed] == [line], \
        [f.describe() for f in r.findings]


def test_a_matrix_that_is_another_product_is_not_judged_as_this_one():
    """The same drawing holding Q K (no transpose): most entries are not Q Kᵀ, so nothing is called wrong."""
    other = PAGE.replace("0.22  0.71  0.57", "0.33  0.70  0.42").replace("0.60  0.73  1.22", "0.99  0.77  0.99") \
        .replace("0.70  0.76  1.24", "0.98  0.74  0.88")
    r = check_document(other, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
