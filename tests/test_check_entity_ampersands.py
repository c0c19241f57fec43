"""LaTeX matrices whose cell separators a page exported as the HTML entity `&amp;`.

Outside trial t191a (notes exported from a chat tool): every bmatrix read `1.25 &amp; 2.4 \\\\ ...`, so no matrix was
read at all and the page was refused (exit 2), its wrong scores with it.  Inside math the entity is the `&` it
renders as (readers/markdown.py `_entity_ampersands`).
"""

from check_helpers import error_places

PAGE = r"""# Scores by hand

With $X = \begin{bmatrix} 1 &amp; 0.5 \\ 0.2 &amp; 2 \end{bmatrix}$, and W_Q, W_K, W_V all the identity, unscaled:

$QK^T = \begin{bmatrix} 1.25 &amp; 1.2 \\ 1.2 &amp; 4.04 \end{bmatrix}$
"""



def test_the_escaped_matrices_are_read_and_hold():
    assert error_places(PAGE) == []


def test_a_slip_in_them_is_found():
    assert error_places(PAGE.replace("4.04", "4.14")) == [(5, "4.14")]
