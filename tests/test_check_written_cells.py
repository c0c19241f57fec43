"""A vector of written sums between the dot products and their values, `= [0.052 + 0.06, 0.033 + 0.18, ...]`.

In a planted-slip run on a public notebook (outside trial t128f) the value line was changed (0.122 for 0.112), the
configuration then started from those printed scores, and the line of written sums above it was compared with them
as if it were a printout of the scores: its first cell was called wrong, beside the true finding on the value
line.  A cell that is written arithmetic is not a printed value; where such a line misses the trace, the slip is
judged on the line that prints the values (claims/elided.py).
"""

from mha.check import check_document

PAGE = """Scores = [0.1*0.52 + 0.3*0.20, 0.1*0.33 + 0.3*0.60, 0.1*0.71 + 0.3*0.40]
       = [0.052 + 0.06, 0.033 + 0.18, 0.071 + 0.12]
       = [0.112, 0.213, 0.191]

Softmax([0.112, 0.213, 0.191]) ≈ [0.31, 0.35, 0.34]
"""


def test_the_lines_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_slip_in_the_values_is_one_finding_on_their_line():
    r = check_document(PAGE.replace("= [0.112, 0.213", "= [0.122, 0.213"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(3, "0.122")], [f.describe() for f in r.findings]


def test_a_slip_in_a_written_product_is_found():
    r = check_document(PAGE.replace("= [0.052 + 0.06", "= [0.062 + 0.06"), fmt="md")
    assert 2 in [f.line for f in r.errors], [f.describe() for f in r.findings]
