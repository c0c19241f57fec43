"""An exercise page that calls its attention function on literal matrices (`attention([[1,0],[0,1]], ...)`) and
prints what it expects, case after case.  The call's three arrays are the query, keys and values in that order;
before, the page was refused ("the numbers found are the inputs only") and a slip in an expected output was never
found.  A later case ("Case 2:") is another example with its own givens.  My own matrices; every expected value is
NumPy's, rounded to four decimals."""

import numpy as np

from mha.check import check_document
from mha.check.readers.calls import name_call_arguments

CASES = [([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[2, 1], [0, 3]]),
         ([[1, 0], [1, 1]], [[1, 0], [0, 1]], [[10, 20], [30, 40]])]


def _attention(q, k, v):
    q, k, v = (np.array(m, float) for m in (q, k, v))
    s = q @ k.T / np.sqrt(q.shape[1])
    a = np.exp(s - s.max(1, keepdims=True))
    return (a / a.sum(1, keepdims=True)) @ v


def _page(slip=None):
    lines = ["# Exercise: scaled dot-product attention", "",
             "Implement `attention(Q, K, V)` returning softmax(Q Kᵀ / √d_k) V, rounded to four decimals.", ""]
    for n, (q, k, v) in enumerate(CASES, start=1):
        o = _attention(q, k, v)
        rows = ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in o)
        lines += [f"Case {n}: `attention({q}, {k}, {v})`".replace(" ", "").replace("Case", "Case ")
                  .replace(":`", ": `"), "", f"Expected: `[{rows}]`", ""]
    text = "\n".join(lines)
    return text.replace(*slip) if slip else text


def test_the_call_names_its_three_arrays():
    assert name_call_arguments("Try `attention([[1,0]], [[1,0],[0,1]], [[2,1],[0,3]])` now") == \
        "Try `Q = [[1,0]], K = [[1,0],[0,1]], V = [[2,1],[0,3]]` now"
    # two arguments, a name that is no attention function, or code inside a fence: left as written
    for text in ("`attention([[1,0]], [[1,0],[0,1]])`", "`matmul([[1]], [[2]], [[3]])`",
                 "```python\nprint(attention([[1]], [[2]], [[3]]))\n```"):
        assert name_call_arguments(text) == text
    # a call that is a whole line of code, with no mask: Python assignments in its place
    assert name_call_arguments("```python\nsolve([[1]], [[2]], [[3]], None)\n```") == \
        "```python\nQ = [[1]]; K = [[2]]; V = [[3]]\n```"


def test_both_cases_are_checked_and_hold():
    r = check_document(_page(), fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert not r.not_checked, [str(n) for n in r.not_checked]
    assert r.n_numbers >= 12, r.n_numbers      # both expected outputs, every entry


def test_a_slip_in_the_second_case_is_found():
    right = f"{_attention(*CASES[1])[1, 1]:.4f}"
    wrong = f"{float(right) + 0.1:.4f}"
    r = check_document(_page(slip=(right, wrong)), fmt="md")
    assert [f.printed for f in r.errors] == [wrong], [f.describe() for f in r.findings]
