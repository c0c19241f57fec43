"""Two things slides write that the trial t178c met (a Portuguese deck):

- a memory count whose total is in a larger unit than its terms, `$7\\times10^9 \\times 16 = 112$ GB` (bytes counted,
  gigabytes written): it was "printed 112; exact 1.12e+11", a false finding; a total that is wrong in any unit is
  still one;
- TeX's spacing-free decimal point, `1{.}135`: the numbers were not read, so a slip among them went unreported."""

from mha.check import check_document


def _tex(body: str) -> str:
    return "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def test_a_total_in_gigabytes_is_no_slip():
    r = check_document(_tex("For 3B parameters: $3\\times10^9 \\times 4 = 12$ GB of memory."), fmt="tex")
    assert not r.errors, [f.describe() for f in r.findings]
    r = check_document(_tex("For 3B parameters: $3\\times10^9 \\times 4 = 14$ GB of memory."), fmt="tex")
    assert [f.printed for f in r.errors] == ["14"], [f.describe() for f in r.findings]


def test_decimal_points_in_braces_are_read():
    right = _tex("The running sum: $\\ell = 1{.}000 + 0{.}368 = 1{.}368$.")
    r = check_document(right, fmt="tex")
    assert not r.errors and r.n_numbers >= 1, ([f.describe() for f in r.findings], r.n_numbers)
    r = check_document(right.replace("= 1{.}368", "= 1{.}378"), fmt="tex")
    assert [f.printed for f in r.errors] == ["1.378"], [f.describe() for f in r.findings]
