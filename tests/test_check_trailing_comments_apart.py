"""Two comments, each after its own line of code, on consecutive lines:

    sigmoid = 1 / (1 + np.exp(-x))  # ≈ 0.99995
    gradient = sigmoid * (1 - sigmoid)  # ≈ 0.00005

were read as one block of text, so the second "≈" continued the first: "≈ 0.99995 ≈ 0.00005", an equation found
wrong (a Chinese translation of a book's chapter, t231c).  Comments that each follow code say one thing each, of
their own line (readers/python.py).  A matrix printed over plain comment lines under its print is still one
block.  My own lines."""

from check_helpers import error_findings

PAGE = """# Why softmax saturates

```python
x = 9
sigmoid = 1 / (1 + np.exp(-x))  # ≈ 0.99988
gradient = sigmoid * (1 - sigmoid)  # ≈ 0.00012
```

```python
scores = np.array([2.0, 1.0, 0.0])
print(softmax(scores))
# [0.6652 0.2447 0.0900]
```
"""


def test_each_trailing_comment_is_its_own():
    assert error_findings(PAGE) == []


def test_a_slip_in_the_printed_weights_is_still_found():
    errs = error_findings(PAGE.replace("0.2447", "0.2474"))
    assert [f.printed for f in errs] == ["0.2474"], [f.describe() for f in errs]
