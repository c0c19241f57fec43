"""A Python script (.py, or saved as text) that shows what it prints in comments under each print: the code's
literals are the inputs, each comment block under a print is that print's output, and a name reassigned to a
softmax (`scores = soft_max(scores)`) names weights."""

import pytest

from mha.check import check_document

SCRIPT = """import numpy as np

def soft_max(z):
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)

Query = np.array([
    [1, 0, 1],
    [0, 1, 1]
])
Key = np.array([
    [1, 1, 0],
    [0, 1, 1]
])
Value = np.array([
    [1, 2],
    [3, 0]
])

scores = Query @ Key.T
print(scores)
# [[1 1]
#  [1 2]]

scores = soft_max(scores)
print(scores)
# [[0.5        0.5       ]
#  [0.26894142 0.73105858]]

out = scores @ Value
print(out)
# [[2.         1.        ]
#  [2.46211716 0.53788284]]
"""


@pytest.mark.parametrize("name", ["attention.py", "attention.txt"])
def test_a_script_with_printouts_in_comments_is_checked(name):
    r = check_document(SCRIPT, name=name)
    assert not r.errors, [f.describe() for f in r.errors]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert r.n_numbers >= 12


def test_a_slip_in_a_commented_printout_is_found():
    r = check_document(SCRIPT.replace("0.26894142 0.73105858", "0.26894142 0.73015858"), name="attention.py")
    assert [f.line for f in r.errors] == [28], [f.describe() for f in r.errors]
