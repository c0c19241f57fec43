"""Three false findings of t227a:

* `alpha = exp(0.707107 - 1.414214) = exp(-0.707107) = 0.49306869139523984` (a Chinese page on FlashAttention's
  online softmax): the result is exp(-1/√2) printed by the machine, and 0.707107 is 1/√2 rounded for the text.  A
  term of six significant digits was taken as exact because it had fewer decimals than the result
  (numbers.exact_below): under a result printed to full precision it keeps its rounding.
* `e1≈2.72e2≈7.39e−3≈0.050e5≈148.41` (a machine translation that ran e¹ ≈ 2.72, e² ≈ 7.39, ... together): read as
  0.050e5 = 5000 ≈ 148.41.  Two bare numbers, one in scientific notation, ten times apart are no equation
  (claims/arith.py `_apart`).
* `和\\=59,874+26,903+...\\=217,210`: a sum whose terms the readers could not take (escaped equals signs) was judged
  as a row sum of the configuration's, another row's.  Its result is the sum of its own terms, not an entry to look
  up (claims/arith.py `_UNREAD_SUM`).  The small page below guards that rule; it checks clean before it too (its
  sum is not matched with a row as the translated page's was).

My own numbers."""

import math

import pytest

from check_helpers import error_places, line_of

ONLINE = """# A correction factor

```
alpha = exp(0.577350 - 1.154701)
      = exp(-0.577350)
      = {v}
```
"""


def test_the_factor_is_exp_of_minus_one_over_root_three():
    assert repr(math.exp(-1 / math.sqrt(3))) == "0.5613839137989282"


def test_a_full_precision_result_of_rounded_terms_holds():
    assert error_places(ONLINE.format(v="0.5613839137989282")) == []


def test_a_slip_in_it_is_still_found():
    text = ONLINE.format(v="0.5618339137989282")
    assert error_places(text) == [(line_of(text, "0.5618"), "0.5618339137989282")]


@pytest.mark.parametrize("line", ["指数：e1≈2.72e2≈7.39e−3≈0.050e5≈148.41",
                                  "exp: e0≈1.00e1≈2.72e2≈7.39"])
def test_terms_run_together_are_no_equation(line):
    text = f"# Softmax by hand\n\nscores [1.0, 2.0, -3.0, 5.0]\n\n{line}\n"
    assert error_places(text) == []


def test_a_sum_whose_terms_are_not_read_is_not_judged_against_another_row():
    text = ("# Scores\n\n| | a | b |\n|---|---|---|\n| q1 | 1.0 | 2.0 |\n| q2 | 3.0 | 1.5 |\n\n"
            "The second row: e3.0≈20.09e1.5≈4.48\n\n和\\=20.09+4.48\\=24.57\n")
    assert error_places(text) == []
