"""Two weight matrices typed side by side in a text block, each name written over its own columns:

    W_Q               W_K
     0.3 -0.2          0.5  0.1
     0.1  0.4         -0.3  0.2

Outside trial t188e (a transformer block by hand): the block was read as one 4×8 matrix with no name, so the page's
projections were never found and W = I was assumed.  Each name over a gap of spaces claims the numbers below it
(readers/drawn.py `_placed_names`).
"""

from check_helpers import error_places

PAGE = """# One head by hand

The input, three tokens of width 2:

    X = [[1.0, 0.5], [0.2, 1.0], [0.6, 0.4]]

The projections:

```
W_Q               W_K
 0.3 -0.2          0.5  0.1
 0.1  0.4         -0.3  0.2
```

Then Q = X W_Q = [[0.35, 0.00], [0.16, 0.36], [0.22, 0.04]]
and K = X W_K = [[0.35, 0.20], [-0.20, 0.22], [0.18, 0.14]].

The weights are softmax(Q Kᵀ / √2) = [[0.3532, 0.3082, 0.3386], [0.3436, 0.3245, 0.3319], [0.3459, 0.3177, 0.3363]].
"""



def test_the_page_holds():
    assert error_places(PAGE) == []


def test_a_slip_in_K_is_found_against_the_placed_weights():
    assert error_places(PAGE.replace("[-0.20, 0.22]", "[-0.20, 0.32]")) == [(16, "0.32")]
