"""Worked numbers with decimal commas inside a fence with no language (a French page seen in the last look of the
fourth stop of 2026-12-05): `[1,414 ; 0,707 ; 1,414]` in a bare ``` block.  Fences keep their decimal points, as
code does, so the page's attention lines were never read.  A bare fence holding a bracket whose entries are parted
by semicolons and written with decimal commas is worked prose, not a program (readers/decimalcomma._COMMA_TUPLE).
"""

import numpy as np

from mha.check import check_document

DOC = """# Une requête, trois clés

La requête `q = [1, 1]`, la dimension `d = 2` :

```
K = [[2,0], [0,1], [1,1]]      V = [[4,0], [0,4], [2,2]]
scores = K·q / √2 = [2, 1, 2] / 1,414 = [1,414 ; 0,707 ; 1,414]
softmax([1,414 ; 0,707 ; 1,414]) = [0,401 ; 0,198 ; 0,401]
sortie = 0,401·[4,0] + 0,198·[0,4] + 0,401·[2,2] = [2,41 ; 1,59]
```

La sortie reste proche de la première et de la troisième valeur.
"""


def test_the_numbers_are_what_numpy_gives():
    K, V, q = np.array([[2, 0], [0, 1], [1, 1]]), np.array([[4, 0], [0, 4], [2, 2]]), np.array([1, 1])
    s = K @ q / np.sqrt(2)
    a = np.exp(s - s.max())
    a /= a.sum()
    assert np.round(s, 3).tolist() == [1.414, 0.707, 1.414]
    assert np.round(a, 3).tolist() == [0.401, 0.198, 0.401]
    assert np.round(a @ V, 2).tolist() == [2.41, 1.59]


def test_the_fenced_lines_are_read_and_hold():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 8, [f.describe() for f in r.findings]


def test_a_slipped_weight_in_the_fence_is_found():
    r = check_document(DOC.replace("[0,401 ; 0,198 ; 0,401]", "[0,401 ; 0,189 ; 0,401]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(8, "0.189")], [f.describe() for f in r.findings]


def test_a_python_fence_keeps_its_points():
    code = "# code\n\n```python\nw = softmax([1.0, 2.0])  # 0,27 0,73\n```\n"
    from mha.check.readers.decimalcomma import decimal_points
    assert decimal_points(code, "md") == code
