"""Three false findings of outside trials t234a and t234b, each with a page of my own:

1. `y ∈ [1.17, 1.54]`, the range of the output's second column printed by a bounding-box check, was read as a
   value of Y (readers/statements.py: a pair after ∈ is a range).
2. An exercise's new query gives the scaled scores `[0.707, 0, -0.707]`; S's first column in the main example is
   `[0.707, 0, 0.707]`, and the row was held against that column and called a dropped sign.  A row printed across
   the line against a column of some view, one informative entry agreeing, is not identified (claims/identity.py).
3. A notebook scales its printed scores by its own `np.sqrt(6)`, not the configuration's.  With one score slipped,
   the scaled copy (right) was blamed for disagreeing with it.  Where the configuration gives every other entry
   of the scores to the printed digit, its value is the value, and the slip is the operand's
   (claims/formula.py)."""

import json

import numpy as np

from check_helpers import code_notebook, error_findings
from mha.check import check_document

# --------------------------------------------------------------------------- 1. a range after ∈
Q1 = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 2.0]])
V1 = np.array([[1.0, 2.0], [2.0, 1.0], [1.5, 1.5]])


def _chain1():
    S = Q1 @ Q1.T / np.sqrt(2)
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    return S, A, A @ V1


def _rows(M, d=4):
    return "\n".join("[" + ", ".join(f"{v:.{d}f}" for v in r) + "]" for r in M)


def test_a_range_after_the_element_sign_is_no_value_of_y():
    S, A, O = _chain1()
    lo, hi = O.min(0), O.max(0)
    page = (f"# Self-attention with Q = K\n\n```\nQ = K =\n{_rows(Q1, 1)}\nV =\n{_rows(V1, 1)}\n```\n\n"
            f"Scaled scores:\n\n```\n{_rows(S)}\n```\n\nWeights:\n\n```\n{_rows(A)}\n```\n\nOutput:\n\n```\n"
            f"{_rows(O)}\n```\n\nBounding box of the outputs: x ∈ [{lo[0]:.2f}, {hi[0]:.2f}]  "
            f"y ∈ [{lo[1]:.2f}, {hi[1]:.2f}]\n")
    assert error_findings(page) == []


# --------------------------------------------------------------------------- 2. an exercise's row, not a column
def test_an_exercise_row_is_not_held_against_a_column():
    Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    K = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    S = Q @ K.T / np.sqrt(2)                  # its first column is [0.707, 0, 0.707]
    s = K @ np.array([1.0, -1.0]) / np.sqrt(2)    # the exercise's row: [0.707, 0, -0.707]
    page = (f"# Three queries, three keys\n\n```\nQ =\n{_rows(Q, 0)}\nK =\n{_rows(K, 0)}\n```\n\n"
            f"Scaled scores Q K^T / √2:\n\n```\n{_rows(S, 3)}\n```\n\n## Exercise\n\nKeep the keys, and take a new "
            f"query `q = [1, -1]`.\n\n1. Its dot products with the keys, divided by √2, are about "
            f"`[{s[0]:.3f}, {abs(s[1]):.0f}, {s[2]:.3f}]`.\n")
    assert "[0.707, 0, -0.707]" in page
    assert error_findings(page) == []


# --------------------------------------------------------------------------- 3. a scale of the notebook's own
X3 = np.array([[0.412, 0.118, 0.905], [0.733, 0.264, 0.051], [0.187, 0.649, 0.532]])
WQ = np.array([[0.215, 0.804, 0.377], [0.561, 0.093, 0.648], [0.929, 0.446, 0.102]])
WK = np.array([[0.338, 0.752, 0.019], [0.684, 0.271, 0.913], [0.147, 0.506, 0.825]])


def _notebook(slip=None):
    Q, K = X3 @ WQ, X3 @ WK
    R = Q @ K.T
    raw = np.array2string(R, precision=8, floatmode="fixed")
    if slip:
        raw = raw.replace(*slip, 1)
    return code_notebook([
        ("import numpy as np\nX = np.array(%s)\nX" % json.dumps(X3.tolist()), repr(X3)),
        ("W_q = np.array(%s)\nW_k = np.array(%s)" % (json.dumps(WQ.tolist()), json.dumps(WK.tolist())), None),
        ("Q = X @ W_q\nK = X @ W_k", None),
        ("res = Q @ K.T\nprint(res)", raw),
        ("res = res / np.sqrt(K.shape[0] + K.shape[1])\nprint(res)",
         np.array2string(R / np.sqrt(6), precision=8, floatmode="fixed")),
    ])


def test_the_notebook_holds():
    r = check_document(_notebook(), fmt="ipynb")
    assert r.ok, [f.message for f in r.findings]


def test_a_slipped_score_is_found_on_its_own_printout_not_on_its_scaled_copy():
    R = (X3 @ WQ) @ (X3 @ WK).T
    right = f"{R[0, 1]:.8f}"
    wrong = right[:-5] + str((int(right[-5]) + 1) % 10) + right[-4:]
    nb = _notebook((right, wrong))
    found = error_findings(nb, fmt="ipynb")
    assert [(f.cell, f.printed) for f in found] == [(4, wrong)], [f.message() for f in found]
