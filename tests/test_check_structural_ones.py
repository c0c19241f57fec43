"""Ones that every row of the exponentials holds are no evidence of which matrix a printout is.

Outside trial t188a: a projection [[1, 0.5], [0.5, 1]] met the exponentials exp(S - row max) of a 2×2 example, whose
largest entry in each row is 1 whatever the scores; with the 0.5 matching one more entry, "3 of 4 match" made it
those exponentials and its other 0.5 an error.  The ones at the row maxima are skipped as evidence
(claims/identity.py), so the projection is not identified and nothing of it is judged.  Also: `t0·e1 = 0.40` lines in
a fence with no language, which parse as Python (a middle dot may continue a name) but are worked numbers
(readers/markdown.py), and a vector bound to the last word of its label ("Start token t0", claims/nameddot.py).
"""

from check_helpers import error_places

# scores [[2.0, 0.6], [0.707, 1.4]]: exp(S - max) = [[1, 0.2466], [0.5001, 1]], weights [[0.802, 0.198], [0.333, 0.667]]
PAGE = """# Two tokens

The scores (no scaling here):

    scores = [[2.0, 0.6], [0.707, 1.4]]

Softmax of each row:

    weights = [[0.802, 0.198], [0.333, 0.667]]

A projection used later in another layer:

    W_proj = [[1, 0.5], [0.5, 1]]
"""

DOTS = """# One query, two memories

```
m1 = [1.2, 0.4]
m2 = [0.5, 1.5]
```

Start token t0 = [0.3, 0.1].

```
t0·m1 = 0.40
t0·m2 = 0.30
```
"""



def test_the_projection_is_not_taken_for_the_exponentials():
    assert error_places(PAGE) == []


def test_a_slipped_weight_is_still_found():
    assert error_places(PAGE.replace("[0.333, 0.667]", "[0.343, 0.667]")) == [(9, "0.343")]


def test_dot_products_in_a_plain_fence_are_judged():
    assert error_places(DOTS) == []
    assert error_places(DOTS.replace("t0·m2 = 0.30", "t0·m2 = 0.35")) == [(12, "0.35")]
