"""A head size written in a drawing of another shape, in a section before the worked example.

Outside trial t190e: a fenced drawing splits one 8-wide query into two halves, "d_k=4" under each, before the
section that works an example with d_model = 4 and two heads (d_k = 2).  That 4 is also the example's d_model, so
the drawing's section passed for the example's and "d_k=4" became "wrong size: d_k is 2".  A size in code or a
drawing, in a section before the one that gives the example's inputs, is not judged (claims/scope.py
`before_the_example`); the example after it is judged as before.
"""

from check_helpers import error_places

PAGE = """# Heads

### Splitting one query

One token's query of 8 numbers, read as two heads:

```
[q_0, q_1, q_2, q_3, q_4, q_5, q_6, q_7]
 \\___ head 0 ___/  \\___ head 1 ___/
       d_k=4              d_k=4
```

## Worked example: $d_{model} = 4$, $h = 2$

Each head has $d_k = 2$.

$$X = \\begin{bmatrix} 1 & 0 & 0 & 1 \\\\ 0 & 1 & 1 & 0 \\end{bmatrix}, \\quad W^Q = W^K = W^V = I$$

Head 0 scores: $\\begin{bmatrix} 0.707 & 0 \\\\ 0 & 0.707 \\end{bmatrix}$, weights $A_0 = \\begin{bmatrix} 0.670 & 0.330 \\\\ 0.330 & 0.670 \\end{bmatrix}$
"""



def test_the_drawings_size_is_not_judged():
    assert error_places(PAGE) == []


def test_the_example_after_the_drawing_is_still_judged():
    got = error_places(PAGE.replace("0.670 & 0.330 \\\\ 0.330", "0.680 & 0.330 \\\\ 0.330"))
    assert got == [(19, "0.680")], got
