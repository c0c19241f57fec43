"""`X2 = [[1, 0], [1, 0]]` on a worksheet that runs several sequences (t217c, X1, X2, X3 for three training
examples): the index glued to the letter was read as a row, a row's name cannot label a whole matrix, so the matrix
went unnamed, was matched by its values to the exponentials of a made-up "head 2" and called wrong.  `X2`, `Q_3`,
`K_{1}` over a whole matrix still name X, Q, K (the index dropped), so they are judged as what they name."""

from mha.check.infer import prepare
from mha.check.readers import read_document

PAGE = """# Three sequences

```
X2 = [1, 0]
     [1, 0]
```

```
Q_3 = [0.0, 0.1]
      [0.1, 0.0]
```

```
w_12 = [0.5, 0.5]
       [0.4, 0.6]
```
"""


def test_a_letter_with_an_index_over_a_whole_matrix_keeps_its_name():
    objs, _ = prepare(read_document(PAGE, "md"))
    named = {o.a.label: (o.ref.nodes if o.ref is not None else None) for o in objs}
    assert named["X2"] == ("X",) and named["Q_3"] == ("Q",)
    assert named["w_12"] is None           # an entry's name (row 1, column 2) still labels no matrix
