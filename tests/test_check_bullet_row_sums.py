r"""Row sums of a softmax worked by hand, one bullet per row (an outside trial's lecture notes, t254a, and a
course guide's slipped copy, t254c):

* "- Row 2: [..]" on one line and "... The sum is 4.03" on the next, inside one list item: the row its sum is of
  was taken from the item before it (the words of a text line set the context only after its numbers were read),
  so a slip in row 2's sum was measured against row 1's (and, in a page of two examples, the right sum against
  the wrong row became a finding);
* "each e^{0.71} ≈ 2.03 ... the sum is 6.09": three times the rounded exponential, where the exact sum rounds to
  6.08: a sum of the exponentials rounded as the line (or the line above) prints them is rounding, not a slip,
  even when one of those exponentials is itself a slip (found on its own line);
* a sum that follows from scores printed wrong before it (a Q Kᵀ off by the author's own slip) is a note.

My own numbers: Q = [[1, 0], [0, 1], [1, 1]], K = [[1, 1], [1, 0], [1, -1]], d_k = 2."""

from check_helpers import error_findings, error_lines

from mha.check import check_document

_ROWS = r"""## Worked example

Three tokens, with queries and keys of width 2 ($d_k = 2$):

\[
Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 1 & 1 \\ 1 & 0 \\ 1 & -1 \end{bmatrix}
\]

1. **Raw scores**
   \[
   QK^T = \begin{bmatrix} 1 & 1 & 1 \\ 1 & 0 & -1 \\ 2 & 1 & 0 \end{bmatrix}
   \]

2. **Divide by \(\sqrt{2} \approx 1.41\)**
   \[
   S \approx \begin{bmatrix} 0.71 & 0.71 & 0.71 \\ 0.71 & 0 & -0.71 \\ 1.41 & 0.71 & 0 \end{bmatrix}
   \]

3. **Exponentiate and normalise each row**
   - Row 1: \([0.71, 0.71, 0.71]\)  
     The three scores are the same, and each \(e^{0.71} \approx 2.03\). The sum is \(6.09\), so every weight is \(0.33\).
   - Row 2: \([0.71, 0, -0.71]\)  
     \(e^{0.71} \approx 2.03,\; e^{0} = 1,\; e^{-0.71} \approx 0.49\). The sum is \(3.52\). The weights are \([0.58, 0.28, 0.14]\).
   - Row 3: \([1.41, 0.71, 0]\)  
     \(e^{1.41} \approx 4.11,\; e^{0.71} \approx 2.03,\; e^{0} = 1\). The sum is \(7.14\). The weights are \([0.58, 0.28, 0.14]\).
"""

_DISPLAY = _ROWS[:_ROWS.index("3. **Exponentiate")] + r"""3. **Softmax, row by row**

For row 1:
$$e^{0.71} = 2.03, \quad e^{0.71} = 2.03, \quad e^{0.71} = 2.03$$
$$\text{sum} = 6.09$$

$$A_1 = \begin{bmatrix} 0.33 & 0.33 & 0.33 \end{bmatrix}$$
"""


def _cause(text, line):
    return [f.cause for f in check_document(text, fmt="md").findings if f.line == line]


def test_the_bullets_check_clean_and_the_sum_of_rounded_exponentials_is_rounding():
    assert error_findings(_ROWS) == []
    assert any("rounded exponentials" in c for c in _cause(_ROWS, 22))


def test_a_slip_in_row_2s_sum_is_measured_against_row_2():
    found = error_lines(_ROWS.replace(r"The sum is \(3.52\)", r"The sum is \(3.25\)"))
    assert list(found) == [24] and abs(found[24][0].exact - 3.52118) < 1e-4


def test_a_slip_in_row_3s_sum_is_measured_against_row_3():
    found = error_lines(_ROWS.replace(r"The sum is \(7.14\)", r"The sum is \(7.41\)"))
    assert list(found) == [26] and abs(found[26][0].exact - 7.14137) < 1e-4


def test_a_slipped_exponential_is_found_and_the_sum_under_it_is_rounding():
    assert error_findings(_DISPLAY) == []
    slipped = _DISPLAY.replace(r"\quad e^{0.71} = 2.03$$", r"\quad e^{0.71} = 2.30$$")
    assert [(f.line, f.printed) for f in error_findings(slipped)] == [(23, "2.30")]


def test_a_sum_that_follows_from_wrong_scores_is_a_note():
    # the author's Q Kᵀ does not follow from this K (two entries off): the scaled scores and row 1's sum follow it
    page = _ROWS.replace(r"1 & 0 \\ 1 & -1 \end{bmatrix}", r"1 & 0 \\ 0 & -1 \end{bmatrix}")
    assert page != _ROWS
    assert set(error_lines(page)) == {12}
    assert any("follows from the rounded scores" in c for c in _cause(page, 22))
