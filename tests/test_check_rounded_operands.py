"""Products written out with operands shown to three decimals, where the author worked at full precision and
rounded only what is shown: `0.764 × 1.485 = 1.134` (the printed operands give 1.1345) and `1.047 [0.005, -0.105,
0.013] = [0.006, -0.110, 0.014]` (they give 0.0052).  Within what the operands' own rounding moves the result,
such a line holds; a slip past that is still found.  The page is this project's own."""

from check_helpers import error_lines

PAGE = r"""# Gradients by hand (shown to three decimals, worked unrounded)

$$
g_3 = 1.047\,[0.005, -0.105, 0.013] = [G31, -0.110, 0.014]
$$

$$
\text{pos 2: } [0.764\times1.485,\ 0.052\times(-0.631)] = [P21, -0.033]
$$
"""


def test_results_within_their_operands_rounding_hold():
    from mha.check import check_document
    r = check_document(PAGE.replace("G31", "0.006").replace("P21", "1.134"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 5


def test_a_slip_past_the_operands_rounding_is_found():
    found = error_lines(PAGE.replace("G31", "0.016").replace("P21", "1.134"))
    assert list(found) == [4] and [f.printed for f in found[4]] == ["0.016"]
    found = error_lines(PAGE.replace("G31", "0.006").replace("P21", "1.144"))
    assert list(found) == [8] and [f.printed for f in found[8]] == ["1.144"]
