"""A sentence that says the rows of the weights sum to 1 and, in the same breath, gives the columns' sums.

Outside trial t141d: "Every row sums to 1.000000. Rows only - the columns sum to 0.590204, ..." had each column sum
judged as a row sum ("printed 0.590204; exact 1").  A number in a clause about columns summing is no row's sum
(readers/prose.py, _COLUMN_SUMS).
"""

from mha.check import check_document

PAGE = """# Weights from given scores

$$S = \\begin{bmatrix} 0.5 & 1.5 & 0.2 \\\\ 1.0 & 0.3 & 0.8 \\\\ 0.0 & 0.9 & 1.6 \\end{bmatrix}$$

The softmax of each row:

$$A = \\begin{bmatrix} 0.2243 & 0.6096 & 0.1661 \\\\ 0.4319 & 0.2145 & 0.3536 \\\\ 0.1189 & 0.2924 & 0.5888 \\end{bmatrix}$$

Row 2 of the scores is $[1.0,\\ 0.3,\\ 0.8]$.

Each row of the weights sums to $1.0000$; the columns sum to $0.7750$, $1.1165$ and $1.1085$, since a column is no distribution.

$$v_1 = [1, 0], \\qquad v_2 = [0, 1], \\qquad v_3 = [1, 1]$$
"""


def test_the_column_sums_are_not_judged_as_row_sums():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_slip_in_the_weights_is_still_found():
    r = check_document(PAGE.replace("0.4319", "0.4391"), fmt="md")
    assert [f.line for f in r.errors] == [7], [f.describe() for f in r.findings]
