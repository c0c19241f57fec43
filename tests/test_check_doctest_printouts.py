"""Doctests in a module's docstrings (outside trial t166d, a module of attention exercises): `>>> q = np.array(...)`,
`>>> out, w = attention(q, k, v)`, then `>>> np.round(w, 4)` over `array([[0.6698, 0.3302]])`.  The docstring was
read as prose, so the session was never run as one: the printed weights and output were unlabelled and a slip in
them passed.  A docstring that holds `>>>` lines is read as a Python session now (readers/script.py); a row found
not to sum to 1 and an entry of it found wrong on the same line are one finding, on the entry.  My own module; the
numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

MODULE = '''"""Scaled dot-product attention, with its doctests."""

import numpy as np


def attention(q, k, v):
    """Softmax of q kᵀ / √d, times v.

    >>> q = np.array([[1.0, 0.0]])
    >>> k = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> v = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> out, w = attention(q, k, v)
    >>> np.round(w, 4)
    array([[0.6698, 0.3302]])
    >>> np.round(out, 4)
    array([[1.6605, 2.6605]])
    """
    s = q @ k.T / np.sqrt(q.shape[-1])
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return w @ v, w
'''


def _line_of(text):
    return next(k for k, line in enumerate(MODULE.split("\n"), start=1) if text in line)


def test_the_doctest_is_right():
    s = np.array([[1.0, 0.0]]) @ np.eye(2) / np.sqrt(2)
    w = np.exp(s) / np.exp(s).sum()
    assert np.round(w, 4).tolist() == [[0.6698, 0.3302]]
    assert np.round(w @ np.array([[1.0, 2.0], [3.0, 4.0]]), 4).tolist() == [[1.6605, 2.6605]]


def test_the_session_holds():
    r = check_document(MODULE, fmt="py", name="attention.py")
    assert not r.errors and r.n_numbers >= 4, [f.describe() for f in r.findings]


def test_a_slipped_weight_is_one_finding_and_a_slipped_output_is_found():
    r = check_document(MODULE.replace("0.6698, 0.3302", "0.6798, 0.3302"), fmt="py", name="attention.py")
    assert [(f.line, f.printed) for f in r.errors] == [(_line_of("0.6698, 0.3302"), "0.6798")], \
        [f.describe() for f in r.findings]
    r = check_document(MODULE.replace("1.6605, 2.6605", "1.6705, 2.6605"), fmt="py", name="attention.py")
    assert [(f.line, f.printed) for f in r.errors] == [(_line_of("1.6605, 2.6605"), "1.6705")], \
        [f.describe() for f in r.findings]
