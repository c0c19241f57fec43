"""A literal given more axes of length one (outside trial t161c, a course notebook): `torch.tensor(` over a nested
list on the lines below, closed by `).float()[None, None]` to add batch and head axes.  The subscript hid the
literal, so the keys and values were never read and no printed output was checked.  Such a subscript of `None`
or `np.newaxis`, and `.unsqueeze(0)`, are read through now (readers/python._new_axes).  My own page; the numbers
are from plain NumPy."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.readers import read_document

PAGE = """# One query against four keys

```python
K = torch.tensor(
    [[2, 0, 0],
     [0, 2, 0],
     [0, 0, 2],
     [1, 1, 0]]
).float()[None, None]
V = torch.tensor(
    [[1, 0],
     [0, 1],
     [2, 2],
     [3, 0]]
).float()[None, None]
q = torch.tensor([[0, 2, 1]]).float()[None, None]
w = torch.softmax(q @ K.transpose(-2, -1) / math.sqrt(3), dim=-1)
print(w)
print(w @ V)
```

```
tensor([[[[0.0574, 0.5782, 0.1822, 0.1822]]]])
tensor([[[[0.9685, 0.9426]]]])
```
"""


def test_the_printed_numbers_are_numpy_s():
    K = np.array([[2., 0, 0], [0, 2, 0], [0, 0, 2], [1, 1, 0]])
    V = np.array([[1., 0], [0, 1], [2, 2], [3, 0]])
    s = np.array([0., 2, 1]) @ K.T / np.sqrt(3)
    a = np.exp(s - s.max())
    a /= a.sum()
    assert np.round(a, 4).tolist() == [0.0574, 0.5782, 0.1822, 0.1822]
    assert np.round(a @ V, 4).tolist() == [0.9685, 0.9426]


@pytest.mark.parametrize("suffix", ["[None, None]", "[None]", "[np.newaxis]", ".unsqueeze(0)"])
def test_the_literal_is_read_through_new_axes(suffix):
    doc = read_document(PAGE.replace(".float()[None, None]", ".float()" + suffix), "md")
    assert {"K", "V", "q"} <= {a.label for a in doc.arrays}, [a.label for a in doc.arrays]


def test_an_index_is_not_a_new_axis():
    doc = read_document(PAGE.replace("]\n).float()[None, None]\nV", "]\n)[0]\nV"), "md")
    assert "K" not in {a.label for a in doc.arrays}


def test_the_page_checks_clean_and_a_slipped_output_is_found():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 6, [f.describe() for f in r.findings]
    r = check_document(PAGE.replace("0.9426", "0.9246"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(24, "0.9246")], [f.describe() for f in r.findings]
