"""Two false findings of outside trial t235a, each with a page of my own:

1. Query heads counted from 0 (`Head 0: Q = [1, 0] -> ...`, `Head 1: ...`) on a page of one head in the check's
   eyes: the heads become rows, and "Head 0" became row -1, Python's last row, so the first query was called
   "a row of another head or token" (judge.py: a page that counts heads from 0 counts the rows from 0).
2. "By pen with the rounded weights `0.3302 x 2` = 0.6604": the word "weights" made 0.6604 a weight, held
   against 0.6698; the product written before it is what it is (claims/arith.py: `x` between numbers is
   arithmetic the label holds, so the label names no entry).

My own numbers."""

import numpy as np

from check_helpers import error_findings
from mha.check import check_document

K = np.array([[1.0, 0.0], [0.0, 1.0]])
V = np.array([[6.0, 0.0], [0.0, 8.0]])


def _head(q):
    s = K @ q / np.sqrt(2)
    w = np.exp(s) / np.exp(s).sum()
    return w, w @ V


def _vec(v):
    return "[" + ", ".join(f"{x:.4f}" for x in v) + "]"


def test_heads_counted_from_zero_are_rows_counted_from_zero():
    lines = ["# Two query heads share one key and value", "", "Query heads are numbered from zero.", "", "```text",
             "Shared K: [[1, 0], [0, 1]]", "Shared V: [[6, 0], [0, 8]]", ""]
    for h, q in enumerate(([1, 0], [0, 1])):
        w, o = _head(np.array(q, dtype=float))
        lines.append(f"Head {h}: Q = {q} -> weights {_vec(w)} -> output {_vec(o)}")
    page = "\n".join(lines + ["```"]) + "\n"
    assert "Head 0: Q = [1, 0] -> weights [0.6698, 0.3302]" in page
    assert error_findings(page) == []


def test_a_product_in_the_label_names_no_weight():
    # the pen's product lands near the other weight (0.6604 against 0.6698): the word alone would pick it.  The
    # configuration is given (--input), as the weights' entries must be the trace's for the word to reach them.
    w, _ = _head(np.array([0.0, 1.0]))
    assert (f"{w[0]:.4f}", f"{w[1]:.4f}", f"{0.3302 * 2:.4f}") == ("0.3302", "0.6698", "0.6604")
    page = ("# Two tokens, causal\n\nThe weights are [[1.0, 0.0], [0.3302, 0.6698]].\n\n"
            "By pen with the rounded weights `0.3302 x 2` = 0.6604; the machine kept every digit and printed "
            "0.6605.\n")
    r = check_document(page, config={"X": [[1, 0], [0, 1]], "n_heads": 1, "causal": True}, fmt="md")
    assert r.findings == [] and r.n_claims >= 1, [f.message() for f in r.findings]
