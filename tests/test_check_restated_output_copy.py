"""An output printed, then said again in a sentence (t155d, a self-attention page): `A V ≈ [3.33, 0.99]`, then
"giving the output vector [3.33, 0.99]".  The first was found wrong; the second was set aside as "holds under a
configuration nearly as good (W_O = I)", which cannot make it right: under W_O = I it only follows from the first,
wrong, copy.  The copy is a note on the one finding now (verdict._carried_copies), not a doubt.
"""

import numpy as np

from mha.check import check_document

DOC = r"""# A query and two keys

\[
Q = \begin{bmatrix}1 & 1\end{bmatrix},\qquad
K = \begin{bmatrix}1 & 0\\0 & 2\end{bmatrix},\qquad
V = \begin{bmatrix}4 & 0\\0 & 2\end{bmatrix}
\]

The scores \(QK^\top = [1, 2]\), divided by \(\sqrt{2}\): \([0.707, 1.414]\).

\[
A = \operatorname{softmax}([0.707,\,1.414]) \approx [0.33,\;0.67]
\]

\[
\text{Attention} = A V \approx [1.32,\;1.34]
\]

So the query ends with the output vector \([1.32, 1.34]\).
"""


def test_the_numbers_are_what_numpy_gives():
    s = np.array([1.0, 2.0]) / np.sqrt(2)
    a = np.exp(s - s.max())
    a /= a.sum()
    assert np.round(s, 3).tolist() == [0.707, 1.414] and np.round(a, 2).tolist() == [0.33, 0.67]
    assert np.round(a @ np.array([[4, 0], [0, 2]]), 2).tolist() == [1.32, 1.34]


def test_the_page_is_clean():
    r = check_document(DOC, fmt="md")
    assert not r.errors and not r.not_checked, [f.describe() for f in r.findings] + [str(n) for n in r.not_checked]


def test_a_wrong_output_said_again_is_one_finding_and_a_note():
    r = check_document(DOC.replace("[1.32,\\;1.34]", "[1.31,\\;1.34]").replace("\\([1.32, 1.34]", "\\([1.31, 1.34]"),
                       fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(16, "1.31")], [f.describe() for f in r.findings]
    notes = [f for f in r.findings if f.severity == "note"]
    assert [(f.line, f.printed) for f in notes] == [(19, "1.31")] and "line 16" in notes[0].cause
    assert not r.not_checked, [str(n) for n in r.not_checked]
