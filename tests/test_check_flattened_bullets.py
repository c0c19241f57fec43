"""A page whose bulleted list was flattened into prose lines (an outside trial's online-softmax lesson, t258d):
`e^1 = 2.72, e^0 = 1.00. - Add them up:` and `2.72 + 1.00 + 7.39 = 11.11. - Divide each ...`.  The full stop,
a spaced dash and a capitalised word after a number were read as one word with the number, so the sum had no
result and a wrong total went by unsaid.  A number, its full stop, then `- Word` is the end of one item and the
start of the next.  And `1.135 x 0.135 = 0.153` (a spaced letter x between two numbers) is a product.  My own
numbers: logits [1, 0, 2]."""

from check_helpers import error_findings

_PAGE = """Softmax by hand

Three logits: [1, 0, 2].
- Exponentiate:
e^1 = 2.72, e^0 = 1.00, e^2 = 7.39. - Sum them:
2.72 + 1.00 + 7.39 = {total}. - Divide each by the sum:
2.72/11.11 = 0.24, 1.00/11.11 = 0.09, 7.39/11.11 = 0.67.
Result: [0.24, 0.09, 0.67].
"""

_RESCALE = """Online softmax over two tiles

The first tile's running sum is 1.135; the max moves from 3 to 5, so the old sum is rescaled:
1.135 x 0.135 = {value}. Then the second tile's exponentials are added.
"""


def test_a_flattened_list_that_holds():
    assert error_findings(_PAGE.format(total="11.11")) == []


def test_a_wrong_total_before_a_flattened_item_is_found():
    found = error_findings(_PAGE.format(total="11.71"))
    assert [(f.line, f.printed) for f in found] == [(6, "11.71")]


def test_a_product_written_with_the_letter_x():
    assert error_findings(_RESCALE.format(value="0.153")) == []
    found = error_findings(_RESCALE.format(value="0.183"))
    assert [(f.line, f.printed) for f in found] == [(4, "0.183")]
