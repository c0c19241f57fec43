"""A weighted sum written as one product, `[0.12 0.76 0.12] · V = [0.24, 3.16]`, whose result leaves out the last
term (trial t174b, a Chinese page): the checker found the one weight that, changed, makes the product agree with
the result, reported that weight as the slip and gave 0 as its value ("factor [3]: printed 0.12; exact 0"), while
the page's weight was right and its result wrong.  A result that fixes a weight to 0 is the product without that
term: no weight is blamed.  My own weights and values."""

from mha.check import check_document
from mha.inputs import MHAInputError

W = [0.25, 0.5, 0.25]
V = [[2, 1], [0, 4], [1, 1]]


def _page(result):
    rows = r" \\ ".join(" & ".join(str(x) for x in r) for r in V)
    return "\n".join(["# One output", "", "Weights of the first query: $[0.25, 0.5, 0.25]$.", "",
                      "$$", r"o = \begin{bmatrix} 0.25 & 0.5 & 0.25 \end{bmatrix} \begin{bmatrix} " + rows +
                      r" \end{bmatrix} = \begin{bmatrix} " + " & ".join(f"{x:g}" for x in result) + r" \end{bmatrix}",
                      "$$", ""])


def test_a_left_out_term_blames_no_weight():
    dropped = [W[0] * V[0][j] + W[1] * V[1][j] for j in range(2)]          # the third term forgotten
    try:
        errors = check_document(_page(dropped), fmt="md").errors
    except MHAInputError:
        errors = []                 # nothing else on the page is checkable: refused, which blames nothing either
    assert not [f for f in errors if f.claim.startswith("factor")], [f.describe() for f in errors]


def test_the_whole_product_holds():
    full = [sum(W[i] * V[i][j] for i in range(3)) for j in range(2)]
    r = check_document(_page(full), fmt="md")
    assert not r.errors and r.n_numbers >= 2, ([f.describe() for f in r.findings], r.n_numbers)
