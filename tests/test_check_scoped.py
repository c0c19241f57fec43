"""Scopes (issue 18): one document, several examples.  A lab page with separate exercises (another X, another d)
is judged per scope: the document's configuration where it explains the objects, and each section it leaves
unexplained read again on its own (check/scoped.py).  A scope starts at a heading, or at a line that says another
example starts ("Another example", 例2); the evidence names each scope and where it starts.  My own page: attention
without weights (Q = K = V = X, scores ÷ √d), numbers from plain NumPy."""

import json

import pytest

from mha.check import check_document
from mha.check.readers import read_document
from mha.check.scoped import mark_openers, notebook_starts, scope_starts

PAGE = """# Self-attention without weights, twice

Here the queries, keys and values are the token vectors themselves (Q = K = V = X), and the scores are divided by √d.

## Exercise 1: three tokens, d = 2

```
X = [[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]]
```

Scores X Xᵀ / √2:

```
S = [[0.71, 0.35, 0.00], [0.35, 0.88, 1.41], [0.00, 1.41, 2.83]]
```

Weights, softmax by rows:

```
A = [[0.46, 0.32, 0.22], [0.18, 0.30, 0.52], [0.05, 0.19, 0.77]]
```

Output A X:

```
O = [[0.62, 0.77], [0.33, 1.34], [0.14, 1.72]]
```

## Exercise 2: two tokens, d = 3

```
X = [[0.2, 1.0, -0.5], [1.5, 0.0, 0.4]]
```

Scores X Xᵀ / √3:

```
S = [[0.74, 0.06], [0.06, 1.39]]
```

Weights, softmax by rows:

```
A = [[0.67, 0.33], [0.21, 0.79]]
```

Output A X:

```
O = [[0.64, 0.67, -0.20], [1.23, 0.21, 0.21]]
```
"""

SECOND = PAGE.index("## Exercise 2")
OPENERS = {
    "heading": PAGE,
    "another example": PAGE.replace("## Exercise 1: three tokens, d = 2", "First example: three tokens, d = 2.")
                           .replace("## Exercise 2: two tokens, d = 3", "Another example: two tokens, d = 3."),
    "例2": PAGE.replace("## Exercise 1: three tokens, d = 2", "例1：三个词元，d = 2。")
               .replace("## Exercise 2: two tokens, d = 3", "例2：两个词元，d = 3。"),
}


def _line(text: str, s: str) -> int:
    return text[:text.index(s)].count("\n") + 1


@pytest.mark.parametrize("how", sorted(OPENERS))
def test_each_example_is_judged_in_its_own_scope(how):
    text = OPENERS[how]
    r = check_document(text, fmt="md")
    assert r.errors == [] and r.not_checked == []
    start = _line(text, "例2" if how == "例2" else "two tokens, d = 3")
    scopes = [e for e in r.evidence if e.startswith("scope from line")]
    assert len(scopes) == 1 and scopes[0].startswith(f"scope from line {start} (")
    assert f"X from line {_line(text, 'X = [[0.2')}" in scopes[0]


@pytest.mark.parametrize("how", sorted(OPENERS))
def test_a_slip_in_the_second_example_is_found_on_its_line(how):
    text = OPENERS[how].replace("[0.21, 0.79]", "[0.21, 0.97]")
    r = check_document(text, fmt="md")
    assert [(f.line, f.printed, f.rounded) for f in r.errors] == [(_line(text, "[0.21, 0.97]"), "0.97", "0.79")]


def test_a_slip_in_the_first_example_is_still_the_documents():
    text = PAGE.replace("[0.18, 0.30, 0.52]", "[0.18, 0.03, 0.52]")
    r = check_document(text, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(_line(text, "[0.18, 0.03"), "0.03")]


def test_without_scopes_the_second_example_is_not_checked():
    """Only its weights are, as the softmax of the scores printed above them (a pair that holds whatever the
    configuration): a slip there is found, one in its output is not."""
    r = check_document(PAGE, fmt="md", scopes=False)
    assert r.errors == [] and {n.line for n in r.not_checked} >= {_line(PAGE, "X = [[0.2")}
    text = PAGE.replace("[0.21, 0.79]", "[0.21, 0.97]")
    assert [(f.line, f.printed) for f in check_document(text, fmt="md", scopes=False).errors] == \
        [(_line(text, "[0.21, 0.97]"), "0.97")]


def test_openers_are_read_at_the_start_of_a_line_only():
    text = "intro\nAnother example: small.\nas in example 2 above\n例2：另一组\n例20 is not one\n"
    doc = read_document(text, "md")
    mark_openers(doc, text, "md")
    assert [line for line, _ in scope_starts(doc, text)] == [1, 2, 4]


# the same two examples as a notebook: the second starts where a code cell binds X (and d) again
NB_EXAMPLES = [
    ("X = np.array([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]])\nd = 2", "[[1.  0. ]\n [0.5 1. ]\n [0.  2. ]]\n",
     "[[0.71 0.35 0.  ]\n [0.35 0.88 1.41]\n [0.   1.41 2.83]]\n",
     "[[0.46 0.32 0.22]\n [0.18 0.3  0.52]\n [0.05 0.19 0.77]]\n", "[[0.62 0.77]\n [0.33 1.34]\n [0.14 1.72]]\n"),
    ("X = np.array([[0.2, 1.0, -0.5], [1.5, 0.0, 0.4]])\nd = 3", "[[ 0.2  1.  -0.5]\n [ 1.5  0.   0.4]]\n",
     "[[0.74 0.06]\n [0.06 1.39]]\n", "[[0.67 0.33]\n [0.21 0.79]]\n",
     "[[ 0.64  0.67 -0.2 ]\n [ 1.23  0.21  0.21]]\n"),
]


def _notebook(second_a: str = NB_EXAMPLES[1][3]) -> str:
    def code(src, out):
        return {"cell_type": "code", "id": f"c{len(cells)}", "metadata": {}, "execution_count": None,
                "source": src, "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    cells: list = []
    cells.append({"cell_type": "markdown", "id": "m0", "metadata": {},
                  "source": "# Attention without weights\n\nQ = K = V = X; scores divided by the square root of d."})
    cells.append(code("import numpy as np\n\ndef softmax(s):\n    e = np.exp(s - s.max(axis=1, keepdims=True))\n"
                      "    return e / e.sum(axis=1, keepdims=True)", ""))
    for k, (x, xs, sc, a, o) in enumerate(NB_EXAMPLES):
        cells.append(code(x + "\nprint(X)", xs))
        cells.append(code("S = X @ X.T / np.sqrt(d)\nprint(S.round(2))", sc))
        cells.append(code("A = softmax(S)\nprint(A.round(2))", a if k == 0 else second_a))
        cells.append(code("O = A @ X\nprint(O.round(2))", o))
        if k == 0:
            cells.append({"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "The same for two other tokens."})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_notebook_that_binds_x_again_starts_another_example():
    text = _notebook()
    assert notebook_starts(text) == [(1, "the start"), (8, "cell 8 binds X, d again")]
    r = check_document(text, fmt="ipynb")
    assert r.errors == [] and r.not_checked == []
    assert [e.split(",")[0] for e in r.evidence if e.startswith("scope")] == ["scope from cell 8 (cell 8 binds X"]
    assert "X from cell 8" in [e for e in r.evidence if e.startswith("scope")][0]


def test_a_slip_in_the_notebooks_second_example_is_found_in_its_cell():
    text = _notebook("[[0.67 0.33]\n [0.21 0.97]]\n")
    r = check_document(text, fmt="ipynb")
    assert [(f.cell, f.printed, f.rounded) for f in r.errors] == [(10, "0.97", "0.79")]
