"""A weighted sum written with the values' names indexed in brackets (`0.6652 × V[1] + 0.2447 × V[2] + ...`), the
vectors given earlier on the page (`V[1] = [1, 0]`): before, `V[1]` read as the symbol V times the vector [1], so
the line's result was never judged and a slip in it never found (names with subscripts, `v_1`, were already put
in; they are checked here too, as the same page).  My own page; the weights and the result are NumPy's."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.readers.namedterms import name_vectors_in_terms

V = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
S = np.array([1.2, 0.2, -0.8])


def _page(name=lambda j: f"V[{j}]", times="×", slip=None):
    w = np.exp(S - S.max())
    w = np.round(w / w.sum(), 4)
    o = w @ V
    given = ", ".join(f"{name(j + 1)} = [{', '.join(f'{x:g}' for x in v)}]" for j, v in enumerate(V))
    terms = " + ".join(f"{x:.4f} {times} {name(j + 1)}" for j, x in enumerate(w))
    text = "\n".join(["# One query's output", "", f"Values: {given}.", "",
                      f"Weights of the first query: [{', '.join(f'{x:.4f}' for x in w)}].", "",
                      f"output = {terms} = [{', '.join(f'{x:.4f}' for x in o)}]", ""])
    return text.replace(*slip) if slip else text, o


@pytest.mark.parametrize("name", [lambda j: f"V[{j}]", lambda j: f"v_{j}", lambda j: f"v{j}",
                                  lambda j: "V_" + ("<s>", "猫", "坐", "了")[j - 1]])   # token names (t212c)
def test_the_named_terms_are_summed(name):
    text, o = _page(name)
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 2, ([f.describe() for f in r.findings], r.n_numbers)
    wrong = f"{o[1] + 0.01:.4f}"
    r = check_document(text.replace(f"{o[1]:.4f}]", wrong + "]"), fmt="md")
    assert [f.printed for f in r.errors] == [wrong], [f.describe() for f in r.findings]


def test_names_given_two_vectors_or_inside_code_stay_as_written():
    twice = "V[1] = [1, 0]\nV[1] = [0, 1]\nout = 0.5 × V[1] = [0.5, 0]"
    assert name_vectors_in_terms(twice) == twice
    fenced = "V[1] = [1, 0]\n```python\nout = 0.5 * V[1]\n```"
    assert name_vectors_in_terms(fenced) == fenced
    assert name_vectors_in_terms("V[1] = [1, 0]\nthen 0.5 * V[1] = [0.5, 0]").endswith("0.5 * [1, 0] = [0.5, 0]")


STACKED = """# One position's output

The weights of the current position:

```text
weight = [0.665, 0.245, 0.090]
```

and the value vectors, one per line:

```text
v0 = [1, 0]
v1 = [0, 2]
v2 = [2, 1]
```

The output is

```text
0.665 * v0 + 0.245 * v1 + 0.090 * v2
= [0.845, {o2}]
```
"""


def test_value_vectors_stacked_from_lines_are_put_into_the_sum():
    # v0, v1, v2 written one per line are read as the rows of one V; the sum still uses them, counted from 0 as
    # the names are (t214e, Chinese course notes in an admonition)
    assert check_document(STACKED.format(o2="0.580"), fmt="md").errors == []
    r = check_document(STACKED.format(o2="0.560"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.560"], [f.describe() for f in r.findings]
    ones = STACKED.replace("v2", "v3").replace("v1", "v2").replace("v0", "v1")
    r = check_document(ones.format(o2="0.560"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.560"], [f.describe() for f in r.findings]
