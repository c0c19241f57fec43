"""A page that shows the right way to mask (-∞, so the hidden keys get exp = 0) and then the wrong way (the
hidden scores set to 0, so their exponentials are e⁰ = 1).  The second block's exponentials were judged against
the masked trace, and each live-printed hidden cell was an error (t207f, quiz solutions on masking).  Printed live
where the mask hides them, and right where it does not, they are the step without the mask: not judged."""

import math

from check_helpers import error_places, line_of


def row(xs, fmt="{:.1f}") -> str:
    return "[" + ", ".join(x if isinstance(x, str) else fmt.format(x) for x in xs) + "]"


def page(live=(1.0, 0.5), slip: float = 0.0) -> str:
    live = list(live)
    e = [math.exp(x) for x in live]
    right = [x / sum(e) for x in e]
    wrong = [x / (sum(e) + 2) for x in e + [1.0, 1.0]]
    return f"""# Masking with minus infinity

## Warm-up: one scaled score

```
  q = [2, 1, 0, 1]
  k = [1, 1, 1, 0]
  products: [2, 1, 0, 0]  → sum = 3
  ÷ √4 = 2
  Result: 1.5
```

## Hiding the last two keys

```
Right:
  Scores:  {row(live + ["-∞", "-∞"])}
  exp:     {row([e[0] + slip] + e[1:] + ["0", "0"])}
  Softmax: {row(right + ["0", "0"], "{:.2f}")}

Wrong (hidden scores set to zero):
  Scores:  {row(live + [0.0, 0.0])}
  exp:     {row(e + [1.0, 1.0])}
  Softmax: {row(wrong, "{:.2f}")}
```
"""


def test_the_unmasked_block_is_not_judged_against_the_mask():
    assert error_places(page()) == []
    assert error_places(page(live=(1.0, 0.2, 0.5))) == []


def test_a_slip_in_the_masked_block_is_still_found():
    text = page(live=(1.0, 0.2, 0.5), slip=1.0)
    assert error_places(text) == [(line_of(text, "[3.7,"), "3.7")]
