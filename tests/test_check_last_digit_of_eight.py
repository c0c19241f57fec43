"""The eighth significant digit (outside trial t264d, a GPU challenge's example): an output row printed as
`3.1122968, 4.1122968, 5.1122968, 6.1122968` where the exact values are 3.11229666 + k.  The first is what a float32
kernel gives; the others were written by adding 1 by hand, and no float32 prints them, so the row was read as
float64 at its printed precision and all four were called slips in the seventh decimal.  Eight significant digits
or more are read within one unit of their last digit: a careful reader calls no slip there, and a real slip (a
digit changed further up) is still found.  My own numbers: Q, K, V below, scale 1/√4."""

from check_helpers import clean_report, error_findings

_PAGE = """## Example

Q:

```
[[0.0, 0.0, 0.0, 0.0],
 [1.0, 1.0, 0.0, 0.0]]
```

K:

```
[[0.0, 0.0, 0.0, 0.0],
 [1.0, 1.0, 0.0, 0.0]]
```

V:

```
[[0.0, 1.0, 2.0, 3.0],
 [5.0, 6.0, 7.0, 8.0]]
```

Y:

```
[[2.5, 3.5, 4.5, 5.5],
 [{y}, 4.1122968, 5.1122968, 6.1122968]]
```
"""


def test_a_last_digit_a_unit_off_is_no_slip():
    report = clean_report(_PAGE.replace("{y}", "3.1122968"))
    assert report.n_numbers >= 8          # the output is checked, and holds


def test_a_digit_changed_further_up_is_still_found():
    found = error_findings(_PAGE.replace("{y}", "3.1182968"))
    assert [(f.line, f.printed) for f in found] == [(28, "3.1182968")]
