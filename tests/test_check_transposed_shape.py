"""A shape said before a transposed name: "For a 3×4 Q matrix and 4×3 K^T matrix".

On a practice-problem page (the last look, t134a) the transpose mark was dropped from the name after the size, so
4×3 was held against K (3×4) and called a wrong shape.  The mark now stays with its name (readers/prose._noun_after):
4×3 is Kᵀ's shape, and a wrong one is still found.
"""

from mha.check import check_document

PAGE = """
# Scores of three tokens

Take the queries and keys as given:

```
Q = [[1, 0, 1, 0],
     [0, 1, 0, 1],
     [1, 1, 0, 0]]

K = [[1, 0, 0, 1],
     [0, 1, 1, 0],
     [1, 0, 1, 0]]

V = [[1, 0],
     [0, 1],
     [1, 1]]
```

For a 3×4 Q matrix and 4×3 K^T matrix, the scores form a 3×3 matrix:

```
Q K^T = [[1, 1, 2],
         [1, 1, 0],
         [1, 1, 1]]
```
"""


def test_the_shape_of_a_transposed_name_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_wrong_shape_of_the_transposed_name_is_found():
    r = check_document(PAGE.replace("and 4×3 K^T matrix", "and 3×4 K^T matrix"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(20, "3×4")], [f.describe() for f in r.findings]
