"""A printout quoted in a code comment with a remark after it, set apart by spaces:
`# weights: [0.659, 0.242, 0.099]   most on the first token`.

Outside trial t188b: such comment lines vanished (not even "not checked"), the vector and the words read as one
label; without the remark the same line was judged.  Words after a run of spaces, with no operator, number or bracket
among them, remark on the value before them (readers/remarks.py `before_words`).
"""

from check_helpers import error_places

PAGE = """# Softmax of one row

```python
scores = torch.tensor([2.0, 1.0, 0.1])
weights = torch.softmax(scores, dim=-1)
# weights: [0.659, 0.242, 0.099]   most on the first token
```
"""



def test_the_remarked_printout_holds():
    assert error_places(PAGE) == []


def test_a_slip_in_the_remarked_printout_is_found():
    assert error_places(PAGE.replace("0.242", "0.252")) == [(6, "0.252")]
