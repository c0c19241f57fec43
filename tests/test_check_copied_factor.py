r"""A row of weights copied into a written product with two digits swapped:
`[0.21914, 0.57612, 0.21194] × V = [0.6358, 2.1522, 1.0000]`, where the result is the product of the right weights.

Outside trial t140f (a Korean book page): the product disagreed with its printed factors in every entry, so it was
set aside ("not read as that product"), and the author's swapped digits went unreported.  A result that agrees
everywhere once one cell of the row factor is changed, each column alone fixing that cell to the same value,
places the slip in that cell (claims/product.py).
"""

from mha.check import check_document

PAGE = r"""# The first query's output

$$\text{softmax}([1, 2, 1]) = [0.21194, 0.57612, 0.21194]$$

$$\begin{bmatrix} 0.21194 & 0.57612 & 0.21194 \end{bmatrix} \times
\begin{bmatrix} 1 & 0 & 2 \\ 0 & 3 & 1 \\ 2 & 2 & 0 \end{bmatrix} = \begin{bmatrix} 0.6358 & 2.1522 & 1.0000 \end{bmatrix}$$
"""


def test_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_swapped_digits_in_the_copied_row_are_found_there():
    r = check_document(PAGE.replace(r"\begin{bmatrix} 0.21194 & 0.57612", r"\begin{bmatrix} 0.21914 & 0.57612"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "0.21914")], [f.describe() for f in r.findings]
    assert "0.2119" in r.errors[0].describe()      # the value the result and the other cells fix (0.21193)


def test_a_result_unlike_any_one_changed_cell_is_still_set_aside():
    r = check_document(PAGE.replace("0.6358 & 2.1522 & 1.0000", "0.9358 & 1.1522 & 1.7000"), fmt="md")
    assert not [f for f in r.errors if f.line == 5], [f.describe() for f in r.errors]
