"""A list named only "before" or "after", what it is said in a remark at the end of its line (t220f, a Spanish
project's notes): `antes:  [0.8, 0.3, 0.1]  -- puntuaciones crudas` over `después: [0.57, 0.29, 0.14]  -- pesos que
suman 1`.  The weights are wrong, and were missed: "antes" and "después" name nothing.  The remark names the list
(readers/whennamed.py).  My own scores: softmax([1.2, 0.4, -0.3]) = [0.598, 0.269, 0.133]."""

import pytest

from check_helpers import error_places, line_of

PAGE = """# The softmax step

```
{before}:  [1.2, 0.4, -0.3]  -- {raw}
{after}: [{w}]  -- {weights}
```
"""

WORDS = [dict(before="antes", after="después", raw="puntuaciones crudas", weights="pesos que suman 1"),
         dict(before="before", after="after", raw="raw scores", weights="attention weights")]


@pytest.mark.parametrize("words", WORDS)
def test_right_weights_hold(words):
    assert error_places(PAGE.format(w="0.598, 0.269, 0.133", **words)) == []


@pytest.mark.parametrize("words", WORDS)
def test_wrong_weights_are_found(words):
    text = PAGE.format(w="0.598, 0.296, 0.133", **words)
    assert error_places(text) == [(line_of(text, "0.296"), "0.296")]


def test_a_remark_that_names_nothing_changes_nothing():
    from mha.check.readers.whennamed import named_by_remark
    line = "after: [0.5, 0.5]  -- see the figure\n"
    assert named_by_remark(line) == line
