"""A value named by its entry (`q1·k2 = 96`) an order of magnitude from that entry, with no terms of its own, is
another example's number (a famous 64-wide example retold beside a toy table), not a slip of the toy example; a
named value near its entry that disagrees is still a slip."""

import pytest

from mha.check import check_document

DOC = """# Two ways to see attention

A toy table of three items, each a 2-d vector, used as queries, keys and values as they are (no projection):

$$ X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix} $$

With no scaling, item 1 scores $q_1 \\cdot k_1 = 1$, $q_1 \\cdot k_2 = 0$ and $q_1 \\cdot k_3 = 1$.

The weights of the three items:

$$ A = \\begin{bmatrix} 0.4223 & 0.1554 & 0.4223 \\\\ 0.1554 & 0.4223 & 0.4223 \\\\ 0.2119 & 0.2119 & 0.5761 \\end{bmatrix} $$

In the original paper's picture, with 64-wide vectors, the scores of the first word are q1·k1 = 112 and
q1·k2 = 96; divided by 8 they give 14 and 12.
"""


def test_a_far_named_value_of_another_example_is_no_finding():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("find, replace", [("q_1 \\cdot k_3 = 1$", "q_1 \\cdot k_3 = 2$"),
                                           ("0.4223 & 0.1554 & 0.4223 \\\\", "0.4223 & 0.1545 & 0.4223 \\\\")])
def test_a_named_value_near_its_entry_is_still_judged(find, replace):
    text = DOC.replace(find, replace)
    assert text != DOC
    r = check_document(text, fmt="md")
    assert len(r.errors) == 1, [f.describe() for f in r.errors]
