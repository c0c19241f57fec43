"""A derivation drawn inside a box of line-drawing characters, each line between two bars (t153a, a beginners'
introduction): `│   = 0.9 + 0.12 = 1.02   │`.  Only framed lines holding a bracketed vector were unframed, so a slip
in a framed sum went unseen.  A line whose first and last characters are the box's two bars is read without them
(readers/__init__._BOXED); a table drawn with bars between its cells (three bars or more) is left alone.
"""

from mha.check import check_document

DOC = """# Dot products, boxed

```
┌──────────────────────────────────────────┐
│  q(red) · k(fox) = [0.9, 0.4] · [1.0, 0.3] │
│                  = 0.9×1.0 + 0.4×0.3       │
│                  = 0.9 + 0.12 = {s}       │
└──────────────────────────────────────────┘
```
"""


def test_the_boxed_sum_holds():
    r = check_document(DOC.format(s="1.02"), fmt="md")
    assert not r.findings and r.n_claims, [f.describe() for f in r.findings]


def test_a_slip_in_the_boxed_sum_is_found():
    r = check_document(DOC.format(s="1.12"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(7, "1.12")], [f.describe() for f in r.findings]
