"""Three ways of writing that were taken for slips (outside trial t198e, a textbook's chapters on attention):

* "the raw score has variance $16$, so standard deviation $\\sqrt{16} = 4$": the sentence reader took the 16 inside
  the root for the deviation it states, and reported 16 against √16.
* the wrong way to mask shown on purpose: zeroing the forbidden weight *after* the softmax "would leave the row
  (0.078, 0.129, 0.213, 0)": the 0 was judged against the unmasked weight.
* `274{,}877{,}906{,}944 \\approx 2.7\\times10^{11}`: TeX's thousands commas in a document that writes decimal
  points; only the last group, 944, was read, against 2.7e11.
* (t199c) `\frac{485,165,195}{485,187,221}`: plain commas grouping the digits of a TeX argument; the line went
  unread.
* (t199f) a page that writes decimal commas, with one line of arithmetic in decimal points: its 1.382 was read as
  1382, a point grouping thousands, beside 0.154 on the same line.
"""

from check_helpers import error_places

PAGE = r"""# Where the mask goes

The scaled scores of the third query against four keys are $(0.5, 1, 1.5, 2.5)$.

Without the mask: $\operatorname{softmax}(0.5, 1, 1.5, 2.5) = (0.078, 0.129, 0.213, 0.579)$.

With the mask the last score becomes $-\infty$ and $\operatorname{softmax}(0.5, 1, 1.5) = (0.186, 0.307, 0.506)$.

Zeroing the forbidden weight *after* the softmax instead would leave the row $(0.078, 0.129, 0.213, 0)$, which
sums to $0.420$.

Exercise: the raw score has variance $16$, so standard deviation $\sqrt{16} = 4$.

The scores of 8 heads over 4096 tokens of width 2048 cost
$8\cdot2048\cdot4096^2 = 274{,}877{,}906{,}944\approx2.7\times10^{11}$ multiplications.
"""


def test_the_page_holds():
    assert error_places(PAGE) == []


def test_a_slipped_masked_weight_is_still_found():
    assert error_places(PAGE.replace("(0.186, 0.307, 0.506)", "(0.186, 0.317, 0.506)")) == [(7, "0.317")]


def test_a_slipped_root_is_still_found():
    assert error_places(PAGE.replace(r"\sqrt{16} = 4", r"\sqrt{16} = 5")) == [(12, "5")]


def test_a_slipped_grouped_total_is_found():
    assert error_places(PAGE.replace("906{,}944", "906{,}494")) == [(15, "274877906494")]


SATURATED = r"""# A saturated softmax

With scores 12 and 3: $e^{12} \approx 162{,}755$, and the first weight is
$y_1 = \frac{162,755}{162,775} \approx 0.99988$.
"""


def test_a_fraction_of_comma_grouped_numbers_holds():
    assert error_places(SATURATED) == []


def test_a_slipped_fraction_of_comma_grouped_numbers_is_found():
    # (t199c: `\frac{485,165,195}{485,187,221}` was no number at all, and a slip after it passed)
    assert error_places(SATURATED.replace("0.99988", "0.99978")) == [(4, "0.99978")]


MIXED_POINTS = """# Gewichte einer Anfrage

Die skalierten Werte sind 1,0; 2,5 und 1,0. Die Exponentialwerte: 2,7183, 12,1825 und 2,7183, Summe 17,6191.

Die Gewichte: 0,154; 0,691 und 0,154.

Die Ausgabe, mit Punkten geschrieben: 0.154×1 + 0.691×2 + 0.154×1 = 0.154 + 1.382 + 0.154 = 1.690
"""


def test_a_line_with_decimal_points_in_a_page_of_decimal_commas_holds():
    # (t199f: 1.382 beside 0.154 was read as 1382, a point grouping thousands, and found wrong)
    assert error_places(MIXED_POINTS) == []


def test_a_slipped_result_on_that_line_is_found():
    assert error_places(MIXED_POINTS.replace("= 1.690", "= 1.790")) == [(7, "1.790")]


BRACKETED = """# One weight by hand

```
exp(0.6) / [exp(0.6) + exp(0.2) + exp(0.1)] = 0.439
```
"""


def test_a_softmax_with_its_denominator_in_square_brackets_holds():
    assert error_places(BRACKETED) == []


def test_a_slipped_softmax_with_its_denominator_in_square_brackets_is_found():
    # (t201c: `exp(a) / [exp(a) + exp(b) + exp(c)] = v`, brackets read as a vector, the line went unread)
    assert error_places(BRACKETED.replace("= 0.439", "= 0.469")) == [(4, "0.469")]
