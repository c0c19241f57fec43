"""Masked scores and their softmax in one sentence (t219b, a course's lesson log): "After masking: [2.1, 3.5, 1.8,
-inf, -inf, -inf]. After softmax: [0.27, 0.55, 0.18, 0, 0, 0]".  The weights are wrong, but the two lists were
never paired: a pair tied by the mask pattern had to be on different lines, and "After masking" named the mask.
They pair now (claims/softmax.py `_masked_scores`), and weights the sentence names as that softmax are judged
however many are off (`_said_next`): the zeros a mask gives match anything, so they are no evidence against.
My own numbers: softmax([0.4, 1.9, 1.1]) = [0.133, 0.598, 0.269]."""

from check_helpers import error_places, line_of

PAGE = """# Masking one row

- **Worked example:** row 2 raw scores [0.4, 1.9, 1.1, 2.6, 0.3]. The last two keys are in the future. After masking: [0.4, 1.9, 1.1, -inf, -inf]. After softmax: [{w}, 0, 0].
"""


def test_right_weights_hold():
    assert error_places(PAGE.format(w="0.133, 0.598, 0.269")) == []


def test_wrong_weights_are_each_a_finding():
    text = PAGE.format(w="0.20, 0.55, 0.25")
    line = line_of(text, "After softmax")
    assert error_places(text) == [(line, "0.20"), (line, "0.55"), (line, "0.25")]


def test_one_slip_is_found():
    text = PAGE.format(w="0.133, 0.589, 0.269")
    assert error_places(text) == [(line_of(text, "After softmax"), "0.589")]
