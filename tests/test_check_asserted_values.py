"""Expected values typed straight into an assertion, `assert np.allclose(A, [[0.4011, ...]], atol=1e-4)`.

A test script states what it believes the weights are by writing them inside the comparison; before, only the form
with a named literal (`expected = ...; assert np.allclose(A, expected)`) was read, and the numbers inside the call
were not checked at all.  Either order of the two arguments, a plain list or an array call.
"""

from mha.check import check_document

SCRIPT = '''import numpy as np

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
S = X @ X.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
# worked out by hand
assert np.allclose(A, [[0.4011, 0.1978, 0.4011],
                       [0.1978, 0.4011, 0.4011],
                       [0.2483, 0.2483, 0.5035]], atol=1e-4)
np.testing.assert_allclose(np.array([[0.8022, 0.5989], [0.5989, 0.8022], [0.7517, 0.7517]]), A @ X, atol=1e-4)
'''


def test_the_asserted_weights_are_read_and_hold():
    r = check_document(SCRIPT, fmt="py")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 9 + 6, (r.n_numbers, [f.describe() for f in r.findings])


def test_a_slip_inside_the_assertion_is_found_on_its_line():
    r = check_document(SCRIPT.replace("[0.2483, 0.2483, 0.5035]", "[0.2483, 0.2483, 0.5053]"), fmt="py")
    assert [f.line for f in r.errors] == [9], [f.describe() for f in r.findings]


def test_two_names_compared_are_not_read_as_a_literal():
    r = check_document(SCRIPT.replace("[[0.4011, 0.1978, 0.4011],", "[[0.4011, 0.1978, 0.4011],", 1)
                       .replace("assert np.allclose(A, [[", "assert np.allclose(A, A)\nB = np.array([[", 1), fmt="py")
    assert not r.errors, [f.describe() for f in r.errors]
