"""A weight written as a quotient of rounded numbers whose value it does not take: `α₃ = 6.973 / 9.404 = 0.742`.

Outside trial t136e: a Turkish post wrote `A_22 = 19.453 / 34.647 = 0.562`.  The quotient of those rounded
operands is 0.561463 (0.561), but the weight the line names is 0.561501, which rounds to 0.562: the author printed
the weight computed at full precision.  The line was reported as an arithmetic slip.  A result that is the exact
value of the entry its label names, and within a unit of what its own rounded operands give, is no slip.
"""

from mha.check import check_document

PAGE = r"""# Softmax by hand

One query's raw scores against three keys: $s = [-0.159, 0.456, 1.942]$.

- $e^{-0.159} = 0.853$
- $e^{0.456} = 1.578$
- $e^{1.942} = 6.973$
- sum $= 0.853 + 1.578 + 6.973 = 9.404$
- $\alpha_1 = 0.853 / 9.404 = 0.091$
- $\alpha_2 = 1.578 / 9.404 = 0.168$
- $\alpha_3 = 6.973 / 9.404 = 0.742$

Weights: `[0.091, 0.168, 0.742]`
"""


def test_the_weight_rounded_right_is_no_slip():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 10, r.n_numbers


def test_the_quotient_rounded_and_the_exact_weight_listed_both_hold():
    # 0.741 is what the rounded operands give; the list's 0.742 is the exact weight: neither is a slip
    r = check_document(PAGE.replace("= 0.742$", "= 0.741$"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_copy_slip_in_the_list_is_found():
    r = check_document(PAGE.replace("[0.091, 0.168, 0.742]", "[0.091, 0.186, 0.742]"), fmt="md")
    assert [f.line for f in r.errors] == [13], [f.describe() for f in r.findings]


def test_two_units_off_the_quotient_is_found():
    r = check_document(PAGE.replace("= 0.168$", "= 0.170$"), fmt="md")
    assert [f.line for f in r.errors] == [10], [f.describe() for f in r.findings]
