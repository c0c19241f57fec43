"""Whole-number arithmetic beside an attention example: parameter counts with thousands commas, and a
convolution's output size with floor().

On a page of worked model maths (the last look, t134c) two right lines were called slips: `= 142,400 + 400` /
`= 142,800`, whose thousands commas were left as separators because one "114,800; 110,849" elsewhere counted as a
decimal comma (the page writes 56 decimal points), and `floor((32+2-3)/2)+1 = 16`, evaluated without its floor.
A page of points keeps reading its results' thousands commas, and floor() and ceil() are evaluated.
"""

import pytest

from mha.check import check_document

PAGE = """# Model maths

**Remember**: the layer has 114,800; the next 110,849.

A softmax weight is 0.25 and another 0.75; their sum is 1.00.  Scores 0.10, 0.20, 0.30, 0.40 and 0.50 are
examples, as are 1.5, 2.5, 3.5 and 4.5.  Temperatures 0.7, 1.3 and 2.0 make rows sharper or flatter.

```
4 · 100 · (100 + 256) + 4 · 100
= 400 · 356 + 400
= 142,400 + 400
= 142,800
```

```
N_out = floor((32+2-3)/2)+1 = 16
N_pad = ceil(7/2) = 4
```
"""


def test_the_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("old, new", [("= 142,800", "= 142,900"), ("+1 = 16", "+1 = 17"), ("= 4\n", "= 3\n")])
def test_a_slip_in_the_whole_numbers_is_found(old, new):
    text = PAGE.replace(old, new)
    line = next(k for k, x in enumerate(text.split("\n"), 1) if new.strip() in x)
    r = check_document(text, fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]
