"""A list alone in a fence, named by the sentence above it (t220d, a Chinese study log: "缩放后分数为：" over a fence
holding `[2, 1]`, "经过 Softmax，近似得到：" over `[0.731, 0.269]`).  Such captions named a display in math but not a
fence, so the weights were unnamed and their slip missed.  A fence holding one bare list takes its caption's name
(readers/markdown.py).  My own scores: softmax([1.5, 0.5]) = [0.731, 0.269]."""

import pytest

from check_helpers import error_places, line_of

PAGE = """# One query, two keys

{c1}

```
[1.5, 0.5]
```

{c2}

```
[{w}, 0.269]
```
"""

CAPTIONS = [("一个查询对两个键的缩放后分数为：", "经过 Softmax，近似得到："),
            ("The scaled scores of the query against the two keys are:", "After the softmax we get:")]


@pytest.mark.parametrize("c1, c2", CAPTIONS)
def test_right_weights_hold(c1, c2):
    assert error_places(PAGE.format(c1=c1, c2=c2, w="0.731")) == []


@pytest.mark.parametrize("c1, c2", CAPTIONS)
def test_a_slipped_weight_is_found(c1, c2):
    text = PAGE.format(c1=c1, c2=c2, w="0.713")
    assert error_places(text) == [(line_of(text, "0.713"), "0.713")]
