"""A teacher's key that works a first example with `X`, `Wq`, `Wk`, `Wv`, then a second one with `X2` and `Wv2`.
`Wv2` was read as head 2's W_V, so the two examples became one two-head configuration and the second example's
printouts were judged under it; and "exponentials `2.028, 2.028, 4.113`, total `8.169`" in its prose was judged as a
row sum of the first example (three false findings on a key in t231d).  A weight numbered like an input matrix
(`Wv2` beside `X2`) is that example's (infer/candidates.py `_example_numbered`), and a total printed right after
the numbers it adds is their sum (claims/conventions.py `total_of_listed`).  My own numbers."""

import math

import numpy as np

from check_helpers import error_findings

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
WV = np.array([[1.0, 0.0], [0.0, 2.0]])
X2 = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
WV2 = np.array([[0.0, 1.0], [1.0, 0.0]])


def _weights(x):
    s = x @ x.T / math.sqrt(2)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _l(m, d=4):
    return "[" + ", ".join("[" + ", ".join(f"{v:.{d}f}" for v in r) + "]" for r in m) + "]"


def _page(total=None):
    w, w2 = _weights(X), _weights(X2)
    e = np.exp(X2 @ X2.T / math.sqrt(2))[2]
    total = total or f"{sum(round(x, 3) for x in e):.3f}"
    return "\n".join([
        "# Key", "", "```python", "X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])",
        "Wq = np.eye(2)", "Wk = np.eye(2)", "Wv = np.array([[1.0, 0.0], [0.0, 2.0]])",
        "w = softmax(X @ Wq @ (X @ Wk).T / np.sqrt(2))", 'print("weights:", np.round(w, 4).tolist())',
        'print("output :", np.round(w @ X @ Wv, 4).tolist())', "```", "```text",
        f"weights: {_l(w)}", f"output : {_l(w @ X @ WV)}", "```", "", "## A second set", "", "```python",
        "X2 = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])", "Wv2 = np.array([[0.0, 1.0], [1.0, 0.0]])",
        "w2 = softmax(X2 @ X2.T / np.sqrt(2))", 'print("weights:", np.round(w2, 4).tolist())', "```", "```text",
        f"weights: {_l(w2)}", "```", "",
        f"Row 3 of the second set: scaled scores `{X2[2] @ X2[0] / math.sqrt(2):.3f}, "
        f"{X2[2] @ X2[1] / math.sqrt(2):.3f}, {X2[2] @ X2[2] / math.sqrt(2):.3f}`, exponentials "
        f"`{e[0]:.3f}, {e[1]:.3f}, {e[2]:.3f}`, total `{total}`.", ""])


def test_the_two_examples_stay_apart_and_check_clean():
    from mha.check import check_document
    r = check_document(_page(), fmt="md")
    assert r.errors == [], [f.describe() for f in r.errors]
    said = " ".join(map(str, r.configuration.values()))
    assert "H = 1" in said and "W_V printed at line 7" in said, said


def test_a_wrong_total_is_judged_against_the_numbers_it_adds():
    errs = error_findings(_page(total="8.196"))
    assert [(f.printed, f.rounded) for f in errs] == [("8.196", "8.169")], [f.describe() for f in errs]
