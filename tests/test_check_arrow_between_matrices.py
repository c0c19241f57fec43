r"""Two matrices in one display joined by an arrow that names the step: `QK^\top = (..) \xrightarrow{\div\sqrt{2}}
(..)`.  The second matrix took the first's name, QKᵀ, so it "matched only 5 of 12 entries" and nothing in it was
judged: a slip in the scaled scores went unfound (a course's week-17 notes, in t232a and t232c).  The matrix after
an arrow from another matrix is the next step's, unnamed unless the arrow's other side names it
(readers/statements.py).  My own matrices."""

import numpy as np

from check_helpers import error_findings

Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
K = np.array([[1.0, 1.0], [0.0, 1.0], [2.0, 0.0], [0.0, 0.0]])


def _pm(m, d=2):
    return r"\begin{pmatrix}" + r"\\".join(" & ".join(f"{v:.{d}f}" for v in r) for r in m) + r"\end{pmatrix}"


def _page(scaled=None):
    S = Q @ K.T
    scaled = S / np.sqrt(2) if scaled is None else scaled
    return "\n".join(["# Scores", "", f"$$Q = {_pm(Q, 0)}, \\quad K = {_pm(K, 0)}$$", "",
                      "**Step 1.** Scores $= QK^\\top / \\sqrt{2}$:", "",
                      f"$$QK^\\top = {_pm(S, 0)} \\xrightarrow{{\\div\\sqrt{{2}}}} {_pm(scaled)}$$", ""])


def test_the_scaled_matrix_is_judged_and_holds():
    from mha.check import check_document
    r = check_document(_page(), fmt="md")
    assert r.errors == [] and r.n_numbers >= 24, (r.n_numbers, [n.what for n in r.not_checked])


def test_a_slip_in_the_scaled_matrix_is_found():
    bad = Q @ K.T / np.sqrt(2)
    bad[2, 0] = 1.44
    assert [f.printed for f in error_findings(_page(bad))] == ["1.44"]
