r"""Two softmaxes set against each other in a sentence, `softmax([2, 0]) ≈ [0.88, 0.12]` and then `softmax([20, 0])
≈ [1.0, 0.0]` (a healthy split and a saturated one), above a worked example (an outside trial's lesson, t247a).  The
checker read the second argument as a slipped copy of the first and reported 20 as "swapped digits: every later
number of the document follows from 2".  A softmax written out with its result beside it, the result following
from the argument as printed, is what its author meant: another input, never a slip to undo.  My own numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(second="[1.0, 0.0]"):
    return "\n".join([
        "**Why scale?** Large gaps between scores saturate the softmax. For instance,",
        "`softmax([3, 1]) ≈ [0.88, 0.12]` still spreads some weight, while",
        f"`softmax([30, 1]) ≈ {second}` is a hard choice with no gradient to speak of.",
        "Scaling keeps the scores in the first regime.", "",
        "## Worked example", "",
        "| token | key k | value v |", "|---|---|---|", "| 1 | [1, 0] | [2, 0] |", "| 2 | [0, 1] | [0, 2] |",
        "| 3 | [1, 1] | [1, 1] |", "",
        "The second token asks, so its query is q = [0, 1].", "",
        "Scores: q·k1 = 0, q·k2 = 1, q·k3 = 1; divided by √2: 0, 0.707, 0.707.", "",
        "Softmax the scaled scores: [0.198, 0.401, 0.401]", "",
        "Output: 0.198·[2, 0] + 0.401·[0, 2] + 0.401·[1, 1] = [0.797, 1.203]", ""])


def test_the_saturated_softmax_is_no_slip_of_the_healthy_one():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_slip_in_the_worked_example_is_still_found():
    page = _page().replace("[0.797, 1.203]", "[0.779, 1.203]")
    assert error_places(page, fmt="md") == [(line_of(page, "[0.779"), "0.779")]
