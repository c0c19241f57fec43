"""A written sum of exponentials printed to two decimals, totalled before they were rounded.

A public lesson (outside trial t127a) listed e¹, e³ and e² as 2.72, 20.09 and 7.39 and wrote their sum as 30.19: the
total of the unrounded exponentials (30.1929), where the printed terms give 30.20.  It was called an arithmetic
slip.  A sum whose every term is the rounding of an exponential (of a simple score, or of one the page printed)
and whose unrounded total is the printed one is the author's exact working; any other sum is judged as written.
"""

import pytest

from mha.check import check_document

PAGE = """# Scores to weights for one query

The query "sun" has already been scored against three keys, and the scores are divided by √d_k:

```
scaled -> [-1.4, -0.9, 0.8]
```

Raise e to each score:

```
exps   -> [0.25, 0.41, 2.23]
pot    -> 0.25 + 0.41 + 2.23 = 2.88
```

Divide each one by the pot:

```
sun   -> 0.2466 / 2.8787 = 0.0857
moon  -> 0.4066 / 2.8787 = 0.1412
star  -> 2.2255 / 2.8787 = 0.7731
```

## With whole scores

Another query scores [0, -1, -2]. Its exponentials are 1.00, 0.37 and 0.14, and they add to
1.00 + 0.37 + 0.14 = 1.50, so the weights are [0.6652, 0.2447, 0.0900].
"""


def test_sums_of_unrounded_exponentials_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 15, r.n_numbers


@pytest.mark.parametrize("old, new, line, printed", [
    ("2.23 = 2.88", "2.23 = 2.98", 13, "2.98"),          # a slip in the total
    ("2.23 = 2.88", "2.24 = 2.89", 13, "2.89"),          # 2.24 is no rounding of e^0.8: the terms are taken as given
    ("0.14 = 1.50", "0.14 = 1.60", 27, "1.60"),
])
def test_a_total_its_terms_do_not_give_is_a_slip(old, new, line, printed):
    assert old in PAGE
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert (line, printed) in [(f.line, f.printed) for f in r.errors], [f.describe() for f in r.findings]


def test_the_rule_reads_the_terms_not_the_total():
    from mha.check.claims.roundedexps import exact_sum_of_rounded_exps
    from mha.check.numbers import Num
    from mha.check.readers.expr import arithmetic_of

    def holds(text, total, printed=()):
        return exact_sum_of_rounded_exps(arithmetic_of(text), Num.parse(total), list(printed))
    assert holds("2.72 + 20.09 + 7.39", "30.19")                 # e¹ + e³ + e²
    assert not holds("2.72 + 20.09 + 7.39", "30.21")
    assert not holds("2.72 + 20.10 + 7.39", "30.19")             # 20.10 is no rounding of any e^{k/2}
    assert not holds("1 + 1.00", "2.00")                          # e⁰ twice, exactly: nothing was rounded
    assert not holds("0.2 + 0.2 + 0.6", "1.1")                   # one decimal: 0.2 is e^{-1.5} and many another
    assert holds("0.25 + 0.41 + 2.23", "2.88", [-1.4, -0.9, 0.8])  # scores printed on the page
    assert not holds("0.25 + 0.41 + 2.23", "2.88")               # without them, 0.41 is e^{-0.9} by no rule


SUM_LINE = """# Three tokens by hand

Take $Q = K = \\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{pmatrix}$ and
$V = \\begin{pmatrix} 2 & 0 \\\\ 0 & 2 \\\\ 1 & 1 \\end{pmatrix}$, with $d_k = 2$.

$$
\\frac{Q K^\\top}{\\sqrt 2} \\approx \\begin{pmatrix} 0.707 & 0 & 0.707 \\\\ 0 & 0.707 & 0.707 \\\\ 0.707 & 0.707 & 1.414 \\end{pmatrix}
$$

For the first query:

$$
e^{0.707} \\approx 2.028, \\quad e^0 = 1, \\quad e^{0.707} \\approx 2.028. \\quad \\sum \\approx 5.056.
$$
"""


@pytest.mark.parametrize("total, wrong", [("5.056", False), ("5.057", True), ("5.066", True)])
def test_a_sum_one_unit_off_both_readings_is_a_slip(total, wrong):
    """The terms give 5.056 and so do the exact exponentials (5.0562).  A page's 5.057 (outside trial t130e) was
    excused as "the printed terms give 5.057": the printed 1 of e^0 was taken to carry half a unit of rounding.  A
    term printed exactly as its own argument gives it carries none."""
    r = check_document(SUM_LINE.replace("5.056", total), fmt="md")
    assert bool(r.errors) == wrong, [f.describe() for f in r.findings]


ROW = """# Two tokens

$Q = \\begin{bmatrix} 1 & 4 \\\\ 2 & 0 \\end{bmatrix}$, $K = \\begin{bmatrix} 2 & 1 \\\\ 0 & 3 \\end{bmatrix}$,
$V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$, $d_k = 2$.

$S = QK^T / \\sqrt{2} = \\begin{bmatrix} 4.24 & 8.49 \\\\ 2.83 & 0.00 \\end{bmatrix}$

- Exponentiate the first row: $e^{4.24} \\approx 69.4$, $e^{8.49} \\approx 4843.0$
"""


@pytest.mark.parametrize("printed, wrong", [("4843.0", False), ("4865.9", False), ("4842.9", False), ("4875.1", True)])
def test_an_exponential_of_neither_reading_is_a_slip(printed, wrong):
    """e^{8.49} where the score is 6/√2 = 8.4853: 4843.0 (the exact score) and 4865.9 (the printed one) are both
    readings; a page's 4875.1 (outside trial t132d) is neither, though e^{8.485..8.495} spans it."""
    r = check_document(ROW.replace("4843.0", printed), fmt="md")
    assert bool([f for f in r.errors if f.printed == printed]) == wrong, [f.describe() for f in r.findings]
