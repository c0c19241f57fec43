r"""A script that keeps its prints commented out, each with what it printed in a second comment after it
(`# print(weights)      # [0.1092 0.2969 ...]`), as an outside trial's Python file does (t245a).  The comment
after the closing parenthesis was cut as a remark, so the printed weights were never read.  A print left
commented out, followed by a printout, is that name's value.  My own numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document


def _page(weights=None):
    keys = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    query = np.array([1, 0, 1])
    scores = keys @ query
    w = softmax(scores.astype(float))
    weights = weights or "[" + " ".join(f"{x:.6f}" for x in w) + "]"
    return "\n".join([
        "import numpy as np", "",
        "key1 = np.array([1, 0, 0])",
        "key2 = np.array([0, 1, 0])",
        "key3 = np.array([1, 1, 0])",
        "key4 = np.array([0, 0, 1])",
        "query = np.array([1, 0, 1])", "",
        "scores = np.array([np.dot(query, k) for k in (key1, key2, key3, key4)])",
        "# print(scores)       # [" + " ".join(str(int(x)) for x in scores) + "]", "",
        "weights = np.exp(scores) / np.sum(np.exp(scores))",
        f"# print(weights)      # {weights}", ""])


def test_the_commented_printouts_are_read_and_hold():
    report = check_document(_page(), fmt="py")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 8, report.n_numbers


def test_a_slip_in_a_commented_printout_is_found():
    w = softmax(np.array([1.0, 0.0, 1.0, 1.0]))
    text = [f"{x:.6f}" for x in w]
    text[1] = "0.118794" if text[1] != "0.118794" else "0.128794"
    page = _page("[" + " ".join(text) + "]")
    assert error_places(page, fmt="py") == [(line_of(page, "# print(weights)"), text[1])]
