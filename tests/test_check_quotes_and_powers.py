"""A weighted sum that quotes a row of weights, one of which slipped in the row (t271a 02-a, and t269b before it),
and a power of ten as a factor of a size (t271c 04-b):

- the row prints 0.69 where the softmax gives 0.10, and the sum quotes 0.09: the quote lies nearer the right
  weight than the row does, so the slip is the row's (found on its line), not the quote's; before, the quote was
  an error "exact 0.69";
- `2 \\cdot 1 \\cdot 4096 \\cdot 28 \\cdot 3584 \\cdot 2 \\cdot 10^{-9} \\approx 1.64` GB: a power of ten beyond
  the eighth could not be evaluated, and `2 \\cdot 10^{-9}` after other factors was read as one number of one
  significant digit (2e-9 ± 25%), so no slip on the line was found.

My own scores and sizes."""

import numpy as np

from check_helpers import error_findings

_SCORES = [1.6, 0.2, 0.4, 1.1, 0.5]
_DOT = " \\cdot "


def _weights():
    e = np.exp(np.array(_SCORES) - max(_SCORES))
    return e / e.sum()


def _row_page(row, quote):
    return f"""## One query against five keys

```
Scores of query 1:   [{", ".join(f"{x:.1f}" for x in _SCORES)}]
                        |
                     softmax
                        |
Weights:             [{", ".join(row)}]
```

The output of query 1 is the weighted sum of the values:

$$o_1 = {" + ".join(f"{w}{_DOT}v_{j + 1}" for j, w in enumerate(quote))}$$
"""


def test_a_quote_of_the_right_weights_holds():
    right = [f"{w:.2f}" for w in _weights()]
    assert error_findings(_row_page(right, right)) == []


def test_a_slip_in_the_row_is_not_blamed_on_the_quote():
    right = [f"{w:.2f}" for w in _weights()]
    row = list(right)
    row[1] = "0.69"                                 # the softmax gives 0.10 (0.0956)
    found = error_findings(_row_page(row, right))
    assert [(f.line, f.printed) for f in found] == [(8, "0.69")]


def test_a_quote_that_is_neither_is_still_a_slip():
    right = [f"{w:.2f}" for w in _weights()]
    quote = list(right)
    quote[3] = "0.31"                               # the row prints 0.24
    found = error_findings(_row_page(right, quote))
    assert [(f.line, f.printed) for f in found] == [(13, "0.31")]


_SIZE = """## Cache of one sequence

Two tensors (K and V), batch 1, 4096 tokens, 28 layers, width 3584, two bytes each, in GB:

$$2 \\cdot 1 \\cdot 4096 \\cdot 28 \\cdot 3584 \\cdot 2 \\cdot 10^{{-9}} \\approx {gb} \\text{{ GB}}$$

And in binary terms, $2^{{30}} = {gib}$ bytes make one GiB.
"""


def test_sizes_with_powers_that_agree_hold():
    assert error_findings(_SIZE.format(gb="1.64", gib="1073741824")) == []


def test_a_slipped_size_scaled_by_a_power_of_ten_is_found():
    found = error_findings(_SIZE.format(gb="1.94", gib="1073741824"))
    assert [(f.line, f.printed) for f in found] == [(5, "1.94")]
    assert abs(float(found[0].exact) - 2 * 4096 * 28 * 3584 * 2 * 1e-9) < 1e-9


def test_a_slipped_power_of_two_is_found():
    found = error_findings(_SIZE.format(gb="1.64", gib="1073741842"))
    assert [(f.line, f.printed) for f in found] == [(7, "1073741842")]
