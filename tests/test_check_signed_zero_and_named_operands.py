r"""Two readings from an outside trial on pages that are not a plain forward pass (t249b).

A gradient printed three times, by autograd twice and by hand once, where one copy writes an entry `0.` and the
others `-0.` (IEEE's signed zero, h·(p - 1) with h = 0): the copies were compared as text and the `0.` was called a
slip.  A zero's sign changes nothing.

An online softmax worked step by step, `l_new = exp(m_old - m_new) × l_old + exp(1 - 3) = 1.135`: `l_old`, an
identifier, was taken for a word naming the expression after it, so the line was read as `exp(1 - 3) = 1.135` and
called wrong.  A name with an operator after it is an operand of the arithmetic, not its caption.  My own numbers."""

from check_helpers import code_notebook, error_findings, error_places, line_of

from mha.check import check_document
from mha.check.claims.repeated import repeated_claims
from mha.check.infer.prepare import prepare
from mha.check.readers import read_document

_GRAD = """tensor([[ 0.0000,  0.0000, -0.0000, -0.0000],
        [ 0.1214,  0.3387, -0.5512,  0.0911],
        [ 0.1214,  0.3387, -0.5512,  0.0911]])"""


def _three_copies(first_zero="-0.0000", third_entry="-0.5512"):
    by_hand = _GRAD.replace("-0.0000, -0.0000]", f"{first_zero}, -0.0000]", 1)
    again = _GRAD.replace("-0.5512,  0.0911],\n        [ 0.1214", f"{third_entry},  0.0911],\n        [ 0.1214", 1)
    return code_notebook([("W.grad", _GRAD), ("grad_by_hand", by_hand), ("W.grad", again)])


def test_a_zero_printed_without_its_sign_is_the_same_entry():
    doc = read_document(_three_copies(first_zero="0.0000"), "ipynb")
    assert repeated_claims(prepare(doc)[0]) == []
    assert error_findings(_three_copies(first_zero="0.0000"), fmt="ipynb") == []


def test_a_copy_that_differs_in_a_digit_is_still_a_slip():
    doc = read_document(_three_copies(third_entry="-0.5521"), "ipynb")
    claims = repeated_claims(prepare(doc)[0])
    assert [(c.num.text, c.want.text, c.agree) for c in claims] == [("-0.5521", "-0.5512", 2)]


def _trace(total="1.135"):
    return "\n".join([
        "## Online softmax over the scores 3, 1", "",
        "```text",
        "see 3:  m_new = max(m_old, 3) = 3",
        "        l_new = exp(m_old - m_new) × l_old + exp(3 - 3) = 1",
        "        now m_old = 3, l_old = 1",
        "see 1:  m_new = max(m_old, 1) = 3",
        f"        l_new = exp(m_old - m_new) × l_old + exp(1 - 3) = {total}",
        "```", ""])


def test_a_running_sum_with_named_operands_is_no_finding():
    page = _trace()
    assert error_places(page) == []
    assert check_document(page, fmt="md").errors == []


def test_a_plain_sum_after_a_word_is_still_judged():
    page = "The total is 2.718 + 1.000 = 3.818, the sum of the two exponentials.\n"
    assert error_places(page) == [(line_of(page, "3.818"), "3.818")]
