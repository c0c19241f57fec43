"""Two false findings on a textbook chapter in LaTeX (outside trial t233d), each with a page of my own:

1. An `align` of totals whose last row has words of its own before its `\\approx`:

       \\text{Per layer:} \\quad &1.50 + 2.25 = 3.75\\text{ GFLOPs} \\\\
       \\text{24 layers:} \\quad &90.0\\text{ GFLOPs} \\\\
       \\text{Training step:} \\quad &\\approx 270\\text{ GFLOPs}

   A row that starts with a relation was taken to go on from the last result above it (3.75 ≈ 270).  That rule
   is for a display that goes on a derivation (`\\[ = 0.1188 + 0.2304 \\]`), not for a row that names its own
   quantity (readers/builder.py `_worded_row`).

2. A cosine similarity `-1/(3·√11) = -1/√99 ≈ …` printed one unit off in its last digit, because the author
   divided by the roots rounded on the lines above: with `≈`, a quotient of roots one unit off is no slip
   (claims/arith.py `_carried_root`).  A real slip in the same place is still found.

My own numbers: x = (4, 3, 2), y = (3, -1, 0), x·y = 9, ‖x‖ = √29 ≈ 5.385, ‖y‖ = √10 ≈ 3.162; 9/√290 = 0.528498
(0.528), while 9/(5.385·3.162) = 0.528561 (0.529)."""

import math

from check_helpers import error_findings, line_of

FLOPS = r"""\section{Cost of one layer}
\textbf{Totals:}
\begin{align}
\text{Per layer:} \quad &1.50 + 2.25 = 3.75\text{ GFLOPs} \\
\text{24 layers (forward pass):} \quad &90.0\text{ GFLOPs} \\
\text{Training step ($\approx 3\times$ forward):} \quad &\approx 270\text{ GFLOPs}
\end{align}
"""

COSINE = r"""\section{Cosine similarity}
Take $x = (4, 3, 2)$ and $y = (3, -1, 0)$.
\begin{equation}
x^\top y = 4(3) + 3(-1) + 2(0) = 12 - 3 + 0 = 9
\end{equation}
\begin{align}
\|x\|_2 &= \sqrt{16 + 9 + 4} = \sqrt{29} \approx 5.385 \\
\|y\|_2 &= \sqrt{9 + 1 + 0} = \sqrt{10} \approx 3.162
\end{align}
\begin{equation}
\cos(x, y) = \frac{x^\top y}{\|x\|_2 \|y\|_2} = \frac{9}{\sqrt{29} \cdot \sqrt{10}} = \frac{9}{\sqrt{290}} \approx RESULT
\end{equation}
"""


def test_my_numbers():
    assert f"{9 / math.sqrt(290):.3f}" == "0.528"
    assert f"{9 / (5.385 * 3.162):.3f}" == "0.529"


def test_a_worded_row_is_not_the_result_of_the_row_above():
    assert error_findings(FLOPS, fmt="tex") == []


def test_a_wrong_sum_in_the_first_row_is_still_found():
    page = FLOPS.replace("= 3.75", "= 3.95")
    assert [(f.line, f.printed) for f in error_findings(page, fmt="tex")] == [(line_of(page, "3.95"), "3.95")]


def test_a_quotient_of_rounded_roots_one_unit_off_is_no_slip():
    assert error_findings(COSINE.replace("RESULT", "0.529"), fmt="tex") == []


def test_a_real_slip_in_the_quotient_is_found():
    page = COSINE.replace("RESULT", "0.592")
    assert [(f.line, f.printed) for f in error_findings(page, fmt="tex")] == [(line_of(page, "0.592"), "0.592")]
