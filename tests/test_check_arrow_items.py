"""Weights listed one key a line, each line opening with an arrow (t149d, a decoding walk-through):

    Attention weights for "sat":
      → the:  1.000/4.572 = 0.219
      → sat:  1.786/4.572 = 0.391

A line that opens with a relation goes on with the chain of the line above (`= 0.42` under `a / b`), so the
whole list was one chain and only its first quotient was judged: a slip in the second was never seen.  A line
that opens with an arrow, a name and a colon is an item of its own (readers/splitting._arrow_item).
"""

from mha.check import check_document

DOC = """# Weights of one query

```
e^0    = 1.000
e^0.58 = 1.786
Sum = 1.000 + 1.786 + 1.786 = 4.572

Attention weights for "sat":
  → the:  1.000/4.572 = 0.219
  → sat:  1.786/4.572 = {w}
  → mat:  1.786/4.572 = 0.391
```
"""


def test_the_list_holds():
    r = check_document(DOC.format(w="0.391"), fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert r.n_numbers >= 4


def test_a_slip_in_the_second_item_is_found_there():
    r = check_document(DOC.format(w="0.381"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(10, "0.381")], [f.describe() for f in r.findings]
