"""A value on the half-way point between two roundings, to a couple of thousandths of its last digit (t274a): the
exact 0.34444988 is printed 0.3445, and 0.36914999 is printed 0.3692.  The inputs a page works from are rounded
themselves, so such a value may round either way: no slip.  0.3094 for 0.309344, the seed's 0.7518 for 0.7517449
(eight thousandths of a digit short of the half-way point) and 0.504 for 0.50349 (rounded twice, 0.5035 and then
0.504, a field document's own error) still are.

My own scores; the weights are worked out here."""

import numpy as np
import pytest

from check_helpers import error_findings
from mha.check.numbers import Num

_S = np.array([[-0.85, -0.18, 0.0], [-0.70, -0.95, 0.0], [0.40, -0.30, 0.0]])


def _weights() -> np.ndarray:
    e = np.exp(_S - _S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _page(last: str) -> str:
    A = _weights()
    cells = [[f"{x:.4f}" for x in row] for row in A]
    # the two ties: 0.36914999... and 0.20534998..., written as a hand does (0.3692, 0.2054)
    assert cells[0][1] == "0.3691" and cells[1][1] == "0.2053"
    cells[0][1], cells[1][1], cells[2][2] = "0.3692", "0.2054", last
    rows = [f"[{', '.join(c)}]" for c in cells]
    scores = [f"[{', '.join(f'{x:.2f}' for x in r)}]" for r in _S]
    matrix = r" \\ ".join(" & ".join(c) for c in cells)
    srows = r" \\ ".join(" & ".join(f"{x:.2f}" for x in r) for r in _S)
    return "\n".join([
        "# Softmax, row by row", "",
        "The scaled scores of three queries over three keys:", "",
        "$$", f"S = \\begin{{bmatrix}} {srows} \\end{{bmatrix}}", "$$", "",
        "Each row through the softmax, to four places:", "",
        *[f"- Row {i + 1}: $\\text{{softmax}}({s}) \\approx {r}$" for i, (s, r) in enumerate(zip(scores, rows))], "",
        "$$", f"A \\approx \\begin{{bmatrix}} {matrix} \\end{{bmatrix}}", "$$", ""])


def test_weights_on_the_half_way_point_hold():
    assert f"{_weights()[2, 2]:.4f}" == "0.3093"
    assert error_findings(_page("0.3093")) == []


def test_a_weight_half_a_unit_off_is_still_found():
    found = error_findings(_page("0.3094"))
    assert [f.printed for f in found] == ["0.3094"]


@pytest.mark.parametrize("printed, exact, holds", [
    ("0.3445", 0.34444988, True),       # a thousandth of a digit from the half-way point
    ("-0.3692", -0.36914999, True),
    ("0.3445", 0.344445, False),        # five hundredths of a digit short: it rounds to 0.3444
    ("0.7518", 0.7517449217, False),    # the seed's slip stays one
    ("0.504", 0.50349, False),          # rounded twice (0.5035, then 0.504): still a slip
    ("0.3094", 0.309344, False),
    ("2", 2.4999, False),               # a whole number is exact
])
def test_half_way_at_the_number(printed, exact, holds):
    assert Num.parse(printed).contains(exact) is holds
