"""A lesson script that keeps its worked example as text in a triple-quoted string and prints it: the lines inside
the string are read as prose where they stand (readers/script.py).  Before, a .py file was read as code and comment
printouts only, and such a lesson was refused ("configuration: could not be inferred"), while the same text saved
as .txt was checked in full."""

import numpy as np
import pytest

from mha.check import check_document
from mha.inputs import MHAInputError

Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 1.0], [0.0, 1.0]])
V = np.array([[2.0, 1.0], [1.0, 3.0]])
S = Q @ K.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
O = A @ V


def lesson(w: str | None = None) -> str:
    w = w or f"{A[0, 0]:.4f}"
    return f'''"""Lesson 3: attention by hand (the answer to exercise 1 is printed at the end)."""
import numpy as np


def attention(q, k, v):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


answer_1 = """
Exercise 1, worked by hand.

Q = [[1, 0], [0, 1]]
K = [[1, 1], [0, 1]]
V = [[2, 1], [1, 3]]

Scores Q K^T / sqrt(2) = [[{S[0, 0]:.4f}, {S[0, 1]:.4f}], [{S[1, 0]:.4f}, {S[1, 1]:.4f}]]

Weights A = [[{w}, {A[0, 1]:.4f}], [{A[1, 0]:.4f}, {A[1, 1]:.4f}]]

Output O = A V = [[{O[0, 0]:.4f}, {O[0, 1]:.4f}], [{O[1, 0]:.4f}, {O[1, 1]:.4f}]]
"""

if __name__ == "__main__":
    print(answer_1)
'''


def test_a_worked_example_in_a_text_string_is_checked():
    r = check_document(lesson(), fmt="py")
    assert r.ok, [f.describe() for f in r.errors]
    assert r.n_numbers >= 12


def test_a_slip_in_it_is_found_on_its_line():
    text = lesson(w=f"{A[0, 0] + 0.001:.4f}")
    r = check_document(text, fmt="py")
    line = next(k for k, x in enumerate(text.splitlines(), start=1) if x.startswith("Weights A"))
    assert [f.line for f in r.errors] == [line]


def test_a_script_whose_strings_hold_no_example_is_still_refused():
    with pytest.raises(MHAInputError):
        check_document('"""\nA helper module.\nNothing to see.\n"""\nimport numpy as np\nx = np.zeros(3)\n', fmt="py")


def test_strings_used_as_section_comments_leave_the_code_whole():
    """`\"\"\"# scores\"\"\"` between statements: no numbers, so no prose; the code and its printouts in comments are
    read as before (a first cut split the code at every string, and such a script was refused)."""
    text = f'''import numpy as np

"""
    # the inputs
"""
Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 1.0], [0.0, 1.0]])
V = np.array([[2.0, 1.0], [1.0, 3.0]])

"""
    # scores, weights, output
"""
S = Q @ K.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
print(A)
# [[{A[0, 0]:.4f} {A[0, 1]:.4f}]
#  [{A[1, 0]:.4f} {A[1, 1]:.4f}]]
print(A @ V)
# [[{O[0, 0]:.4f} {O[0, 1]:.4f}]
#  [{O[1, 0]:.4f} {O[1, 1]:.4f}]]
'''
    r = check_document(text, fmt="py")
    assert r.ok and r.n_numbers >= 8, [f.describe() for f in r.errors]
    slip = check_document(text.replace(f"{O[1, 1]:.4f}]]", f"{O[1, 1] + 0.001:.4f}]]"), fmt="py")
    assert [f.line for f in slip.errors] == [20]
