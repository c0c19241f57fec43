"""A weighted sum of value tuples whose result keeps a TeX space after its comma: `=(0.75,\\ 0.75)`.

Outside trial t142c (a planted slip missed): `0.25(1,0)+0.25(0,1)+0.50(1,1)=(0.75,\\ 0.85)` was not read as a sum,
only its result as a loose vector, because the tuple pattern allowed no `\\ ` or `\\,` after a comma
(readers/tokens.py, bracket_weighted_tuples).
"""

from mha.check import check_document

PAGE = """# One query

Query $q=(1,1)$, keys $k_1=(1,0)$, $k_2=(0,1)$, $k_3=(1,1)$, values $v_1=(1,0)$, $v_2=(0,1)$, $v_3=(1,1)$, and $d_k=2$.

Scaled scores: $0.707$, $0.707$, $1.414$. Weights: $\\alpha = (0.25, 0.25, 0.50)$.

Output: $0.25(1,0)+0.25(0,1)+0.50(1,1)=(0.75,\\ 0.75)$.
"""


def test_the_spaced_result_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_slip_in_the_spaced_result_is_found():
    for space in ("\\ ", "\\,", ""):
        page = PAGE.replace("(0.75,\\ 0.75)", "(0.75," + space + "0.85)")
        r = check_document(page, fmt="md")
        assert [(f.line, f.printed) for f in r.errors] == [(7, "0.85")], (space, [f.describe() for f in r.findings])
