"""A table with a row per query word whose cells list numbers, the largest weight of each row in bold
(`0.230, 0.230, **0.410**, 0.129`): the bold marks a number, it does not hide it.  The page is this project's own."""

from check_helpers import error_lines

PAGE = """# Four words, one table

X = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]], with W_Q = W_K = W_V = I and d_k = 3.

| word | raw scores | scaled (÷√3) | weights |
|---|---|---|---|
| **red** | 2, 1, 1, 1 | 1.155, 0.577, 0.577, 0.577 | **0.373**, 0.209, 0.209, 0.209 |
| **fox** | 1, 2, 1, 1 | 0.577, 1.155, 0.577, 0.577 | 0.209, **0.373**, 0.209, 0.209 |
| **runs** | 1, 1, 2, 0 | 0.577, 0.577, 1.155, 0.000 | 0.230, 0.230, **WEIGHT**, 0.129 |
| **far** | 1, 1, 0, 1 | 0.577, 0.577, 0.000, 0.577 | **0.281**, **0.281**, 0.158, **0.281** |
"""


def test_bold_weights_in_a_listed_cell_are_read_and_hold():
    from mha.check import check_document
    r = check_document(PAGE.replace("WEIGHT", "0.410"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 48


def test_a_slip_in_a_bold_weight_is_found():
    found = error_lines(PAGE.replace("WEIGHT", "0.420"))
    assert list(found) == [9] and any(f.printed == "0.420" for f in found[9])
