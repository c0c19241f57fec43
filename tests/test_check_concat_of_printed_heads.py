"""A concatenation printed under the heads it is made of, the heads given rather than computed.

Outside trial t191a (a book chapter): head 1 carried over from an earlier chapter, head 2 "suppose a second head
produced", then Concat as a 3×4 matrix.  With no configuration to compute them, nothing was checked and a slipped
cell of the concatenation passed.  The concatenation is its heads side by side whatever produced them
(claims/concatheads.py).
"""

from check_helpers import error_places

PAGE = r"""# Two heads, joined

Take the first head's output from the last chapter:

$$\text{head}_1 = \begin{bmatrix} 0.912 & 1.337 \\ 0.655 & 1.540 \\ 0.781 & 1.402 \end{bmatrix}$$

and suppose a second head produced

$$\text{head}_2 = \begin{bmatrix} 0.4 & 0.1 \\ 0.2 & 0.8 \\ 0.6 & 0.5 \end{bmatrix}$$

Side by side:

$$\text{Concat} = \begin{bmatrix} 0.912 & 1.337 & 0.4 & 0.1 \\ 0.655 & 1.540 & 0.2 & 0.8 \\ 0.781 & 1.402 & 0.6 & 0.5 \end{bmatrix}$$
"""


def test_the_concatenation_holds():
    assert error_places(PAGE) == []


def test_a_slipped_cell_of_it_is_found():
    assert error_places(PAGE.replace("0.655 & 1.540 & 0.2", "0.655 & 1.550 & 0.2")) == [(13, "1.550")]


def test_a_matrix_mostly_unlike_the_heads_is_not_judged_as_their_concatenation():
    page = PAGE.replace("0.912 & 1.337 & 0.4 & 0.1 \\\\ 0.655 & 1.540 & 0.2 & 0.8",
                        "0.1 & 0.2 & 0.3 & 0.4 \\\\ 0.5 & 0.6 & 0.7 & 0.8")
    assert error_places(page) == []
