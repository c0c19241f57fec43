"""Per-token vectors named with capitals and an index, inline: `$Q_1=[1,0]$, $Q_2=[0,1]$`, `$K_3=[1,1]$`.

Outside trial t143a: `Q_1` alone reads as head 1's Q, so the queries were "labelled Q but matches nothing of that
name" and a page with two queries against three keys was not set up at all.  One row each, numbered 1..n, they are
also tried as the tokens' vectors (infer/starts.given), and the search keeps the reading the numbers bear out.
"""

from mha.check import check_document

PAGE = """# Cross-modal attention, one step

Two audio queries $Q_1=[1,0]$, $Q_2=[0,1]$; three image keys $K_1=[1,0]$, $K_2=[0,1]$, $K_3=[1,1]$ and values $V_1=[1,0]$, $V_2=[0,2]$, $V_3=[1,1]$; $d_k = 2$.

For $Q_1$ the scaled scores are $0.707$, $0$, $0.707$, and $e^{0.707} \\approx 2.028$.

The weights are $[0.401, 0.198, 0.401]$ and the output is $[0.802, 0.797]$.
"""


def test_the_capital_token_vectors_start_the_chain():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "Q as Q_i vectors (one per token)" in r.configuration["mode"], r.configuration


def test_a_slip_in_the_output_is_found():
    r = check_document(PAGE.replace("0.802, 0.797", "0.802, 0.787"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(7, "0.787")], [f.describe() for f in r.findings]
