'''A marimo notebook saved as Python (outside trial t165d): each text cell is `mo.md(r"""...""")`, indented inside
its cell function, with the worked softmax in Markdown and TeX.  Those strings were read as plain prose, where the
indentation and the math hid them: "no printed number was checked", and planted slips in them passed.  A string a
call renders as Markdown is read as Markdown now, dedented, at its own lines (readers/script.py).  My own notebook;
the numbers are from plain NumPy.'''

import numpy as np
import pytest

from mha.check import check_document

NOTEBOOK = '''import marimo

app = marimo.App()


@app.cell
def _():
    import numpy as np
    Q = np.array([[1.0, 0.0], [0.0, 1.0]])
    K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    V = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    return Q, K, V


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        r"""
        ### The first query

        Scaled scores: $[0.707, 0, 0.707]$

        - $\\exp(0.707) \\approx 2.028$
        - $Z_0 = 2.028 + 1 + 2.028 = 5.056$
        - $A_0 = [2.028/5.056, 1/5.056, 2.028/5.056] \\approx [0.401, 0.198, 0.401]$
        - $O_0 = 0.401 \\cdot [2, 0] + 0.198 \\cdot [0, 2] + 0.401 \\cdot [1, 1] \\approx [1.203, 0.797]$
        """
    )
    return


if __name__ == "__main__":
    app.run()
'''


def test_the_numbers_are_numpy_s():
    Q, K, V = np.eye(2), np.array([[1., 0], [0, 1], [1, 1]]), np.array([[2., 0], [0, 2], [1, 1]])
    s = Q @ K.T / np.sqrt(2)
    a = np.exp(s) / np.exp(s).sum(1, keepdims=True)
    assert np.round(np.exp(s[0]), 3).tolist() == [2.028, 1.0, 2.028]
    assert np.round(a[0], 3).tolist() == [0.401, 0.198, 0.401]
    assert np.round(a @ V, 3)[0].tolist() == [1.203, 0.797]


def test_the_markdown_cell_is_read_and_holds():
    r = check_document(NOTEBOOK, fmt="py", name="notebook.py")
    assert not r.errors and r.n_numbers >= 10, [f.describe() for f in r.findings]


def _line_of(text):
    return next(k for k, line in enumerate(NOTEBOOK.split("\n"), start=1) if text in line)


@pytest.mark.parametrize("right, wrong", [("[0.401, 0.198, 0.401]$", "[0.401, 0.198, 0.411]$"),
                                          ("[1.203, 0.797]$", "[1.213, 0.797]$")])
def test_a_slip_in_the_markdown_cell_is_found_on_its_line(right, wrong):
    r = check_document(NOTEBOOK.replace(right, wrong), fmt="py", name="notebook.py")
    assert [f.line for f in r.errors] == [_line_of(right)], [f.describe() for f in r.findings]
