"""A quantity named in words and then its row ("softmax row 3", "weights row 2:") is that row of the quantity, not
its head 3: each row is judged against its own row of the configuration."""

import pytest

from mha.check import check_document
from mha.check import labels as lb

DOC = r"""# Softmax, row by row

The scaled scores are

$$
S = \begin{bmatrix} 0 & 2 & 1 \\ 2 & 0 & 2 \\ 1 & 2 & 2 \end{bmatrix}
$$

$$
\text{softmax row 1} = [0.0900,\ 0.6652,\ 0.2447]
$$

$$
\text{softmax row 2} = [0.4683,\ 0.0634,\ 0.4683]
$$

$$
\text{softmax row 3} = [0.1554,\ 0.4223,\ 0.4223]
$$
"""


@pytest.mark.parametrize("label, row", [("softmax row 3", 3), ("weights row 2", 2), ("exp row 1:", 1)])
def test_a_worded_name_and_its_row(label, row):
    r = lb.parse_label(label)
    assert r.raw_row == row and r.raw_head is None


def test_each_worded_row_holds_against_its_own_row():
    r = check_document(DOC, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not r.not_checked, [n.describe() for n in r.not_checked]


def test_a_slip_in_the_third_row_is_found_there():
    r = check_document(DOC.replace("[0.1554,", "[0.1545,"), fmt="md")
    assert [f.line for f in r.errors] == [18], [f.describe() for f in r.errors]
