r"""Printouts pasted as comments under the code that prints them, each row followed by a few words on it after a
run of spaces (`# [[0.71, 0.00, 0.35],    q1, closest to k1`, `#  [0.33, 0.33, 0.33]]    q3: even`), as an
outside trial's Turkish page writes them (t243c).  A remark with a comma in it kept the whole printout unread, and
one with a colon after the last row gave the matrix the remark's words as its name, so that the page was read as
starting from its weights.  The words are a remark; the printout is the value the code above prints.  My own
numbers: Q, K, V given, scaled by √2."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
K = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
V = np.array([[4.0, 0.0], [0.0, 4.0], [2.0, 2.0]])


def _rows(M, fmt, remarks):
    body = [("# [[" if i == 0 else "#  [") + ", ".join(fmt.format(x) for x in row) + ("]]" if i == len(M) - 1 else "],")
            for i, row in enumerate(M)]
    return [f"{b}    {r}" for b, r in zip(body, remarks)]


def _page(slip=None):
    S = Q @ K.T / np.sqrt(2)
    A = np.array([softmax(r) for r in S])
    O = A @ V
    rows_s = _rows(S, "{:.2f}", ["q1, k1's nearest", "q2, k2's nearest", "q3, all three alike"])
    rows_a = _rows(A, "{:.3f}", ["q1: mostly v1", "q2: mostly v2", "q3: even"])
    rows_o = _rows(O, "{:.2f}", ["q1, pulled to v1", "q2, pulled to v2", "q3: the middle"])
    page = "\n".join([
        "## A small example", "", "```python", "import numpy as np", "",
        "Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])", "K = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])",
        "V = np.array([[4.0, 0.0], [0.0, 4.0], [2.0, 2.0]])", "",
        "scores = Q @ K.T / np.sqrt(2)", "print(scores.round(2))", *rows_s, "",
        "weights = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)", "print(weights.round(3))", *rows_a,
        "", "output = weights @ V", "print(output.round(2))", *rows_o, "```", ""])
    return page if slip is None else page.replace(*slip)


def test_the_remarked_printouts_are_read_and_hold():
    report = check_document(_page(), fmt="md")
    assert report.configuration["mode"].startswith("starts from Q, K, V given")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 30, report.n_numbers            # scores, weights and outputs


def test_a_slip_in_a_remarked_row_is_found():
    page = _page(("0.35],    q1, k1", "0.53],    q1, k1"))
    assert error_places(page) == [(line_of(page, "0.53],    q1"), "0.53")]
