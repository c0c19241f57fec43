"""Word vectors printed above a score table that is taken as given and copies them, one cell changed.

Outside trial t141c: a machine-written page listed its words' vectors (`\\text{eat}: [...]`), then gave "QKᵀ" as
a matrix that was those vectors again, one row dropped and one cell changed.  The page starts from those scores,
and the vector above them, four of five cells alike, was judged as a row of the scores with a slip: "printed 0.1,
exact 0".  Nothing printed above the start can be computed from it; an unnamed row there that mostly equals a row
of the given start is the material it was written from, and is not judged (claims/assumed.above_its_start).
"""

from mha.check import check_document

PAGE = r"""## Word vectors

The five words of the sentence, as vectors:

\[
\text{we}: [0.9, 0.4, 0.0, 0.1, 0.0] \\
\text{all}: [0.1, 0.8, 0.2, 0.0, 0.0] \\
\text{of}: [0.0, 0.0, 0.7, 0.4, 0.0] \\
\text{them}: [0.2, 0.1, 0.3, 0.5, 0.0] \\
\text{here}: [0.0, 0.0, 0.0, 0.2, 0.9]
\]

## Scores

Take the scores as given:

\[
QK^T = \begin{bmatrix}
0.9 & 0.4 & 0.0 & 0.1 & 0.0 \\
0.1 & 0.8 & 0.2 & 0.0 & 0.0 \\
0.0 & 0.1 & 0.3 & 0.5 & 0.0 \\
0.0 & 0.0 & 0.0 & 0.2 & 0.9
\end{bmatrix}
\]

Softmax of the first row: 0.3486, 0.2114, 0.1417, 0.1566, 0.1417 (e^0.9 = 2.4596 over a row sum of 7.0566).
"""


def test_the_vectors_above_the_given_scores_are_not_judged():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.line == 9 for n in r.not_checked), [n.describe() for n in r.not_checked]


def test_a_slip_after_the_start_is_still_found():
    r = check_document(PAGE.replace("0.3486, 0.2114", "0.3486, 0.2141"), fmt="md")
    assert [f.line for f in r.errors] == [26], [f.describe() for f in r.findings]

