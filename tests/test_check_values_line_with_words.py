"""Q, K and V given as bracket lists one per line, the V line going on with a sentence (`V = [[1, 1, 4], [0, 1,
6]] Now the scores.`).  V is read up to where its value closes; and where a line assigns V a value the reading
does not take, the keys are no stand-in for the values.  The page is this project's own."""

import math

import numpy as np

from check_helpers import error_lines

Q = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
K = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 2.0]])
V = np.array([[1.0, 1.0, 4.0], [0.0, 1.0, 6.0]])      # K in its first two columns


def page(after_v: str = "Now the scores.", slip: float = 0.0) -> str:
    s = Q @ K.T / math.sqrt(3)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    o = p @ V
    o[1, 2] += slip

    def m(a):
        return "[ " + ", ".join("[" + ", ".join(f"{x:g}" if a is not o and a is not p and a is not s else f"{x:.4f}"
                                               for x in r) + "]" for r in a) + " ]"
    return "\n".join(["A small example: d = 3, scale = 1/sqrt(3)", f"Q = {m(Q)}", f"K = {m(K)}",
                      f"V = {m(V)} {after_v}", f"S = {m(s)}", f"P = {m(p)}", "Output: O = P V", f"O = {m(o)}", ""])


def test_v_followed_by_a_sentence_is_read():
    from mha.check import check_document
    r = check_document(page(), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and "V at line 4" in r.configuration["mode"]
    found = error_lines(page(slip=0.01))
    assert list(found) == [8] and len(found[8]) == 1


def test_values_assigned_but_not_read_are_no_guess_for_the_keys():
    from mha.check import check_document
    r = check_document(page(after_v="next we compute the scores."), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == []
