"""A matrix printed with token names before its rows, one name glued to its bracket: `bites[  0.80,   1.09]`.

Outside trial t189e: the glued row was taken for an index (`scores[0]`), so the block fell apart into separate
rows and the glued one vanished; a slip in it went unreported.  A bracket after a word holding decimal numbers
parted by commas or spaces is a row, not an index (readers/drawn.py `_groups`).
"""

from check_helpers import error_places

PAGE = """# Scores of three tokens

With W_Q = W_K = I, the scores are X Xᵀ, unscaled:

```
X = [[1.0, 0.5], [0.3, 1.0], [0.2, -0.4]]

            dog    bites   man
   dog  [  1.25,   0.80,   0.00]
   bites[  0.80,   1.09,  -0.34]
   man  [  0.00,  -0.34,   0.20]
```
"""



def test_the_page_holds():
    assert error_places(PAGE) == []


def test_a_slip_in_the_glued_row_is_found():
    assert error_places(PAGE.replace("1.09,", "1.19,")) == [(10, "1.19")]
