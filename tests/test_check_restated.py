"""A worked number quoted again (issue 18, recall): slides work a dot product out once and quote it in a figure
and on the next slide, under the same name or as s_ij.  The quote is judged against the worked line
(claims/restated.py); a second example that works the same name out again, and a letter whose quotes are the
scaled scores, are not judged.  My own slides and numbers."""

from mha.check import check_document

SLIDES = r"""\documentclass{beamer}
\begin{document}
\begin{frame}{One query, two keys}
  Query $q_3 = [2, 5, 1]$, keys $k_1 = [3, 1, 4]$ and $k_2 = [1, 2, 6]$, with $d_k = 3$.
  \begin{tikzpicture}
    \node at (0, 1) {$q_3 \!\cdot\! k_1 = \mathbf{15}$};
    \node at (3, 1) {$q_3 \!\cdot\! k_2 = 18$};
  \end{tikzpicture}

  Worked out:
  \begin{itemize}
    \item $q_3 \cdot k_1 = 2{\cdot}3 + 5{\cdot}1 + 1{\cdot}4 = 15$
    \item $q_3 \cdot k_2 = 2{\cdot}1 + 5{\cdot}2 + 1{\cdot}6 = 18$
  \end{itemize}
\end{frame}
\begin{frame}{From scores to weights}
  \begin{tikzpicture}
    \node (a) at (0, 1) {$s_{31} = 15$};
    \node (b) at (0, 0) {$s_{32} = 18$};
    \node (c) at (2, 0.5) {$\div \sqrt{d_k}$};
  \end{tikzpicture}
\end{frame}
\end{document}
"""


def _errors(text):
    return check_document(text, fmt="tex").errors


def test_clean_slides_have_no_finding():
    r = check_document(SLIDES, fmt="tex")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_quote_under_the_same_name_is_judged_by_the_worked_line():
    bad = SLIDES.replace(r"k_1 = \mathbf{15}", r"k_1 = \mathbf{51}", 1)
    errs = _errors(bad)
    assert [(f.line, f.printed) for f in errs] == [(6, "51")], [f.describe() for f in errs]
    assert errs[0].rounded == "15"


def test_a_quote_as_s_ij_is_judged_when_the_letters_other_quote_agrees():
    bad = SLIDES.replace("s_{32} = 18", "s_{32} = 81", 1)
    errs = _errors(bad)
    assert [(f.line, f.printed) for f in errs] == [(19, "81")], [f.describe() for f in errs]


def test_a_letter_that_names_the_scaled_scores_is_not_judged():
    # s_31 = 15/√3 and s_32 = 18/√3: the letter is the scaled score here, nothing contradicts the worked lines
    scaled = SLIDES.replace("s_{31} = 15", "s_{31} = 8.66", 1).replace("s_{32} = 18", "s_{32} = 10.39", 1)
    assert not _errors(scaled), [f.describe() for f in _errors(scaled)]


def test_a_name_worked_out_twice_with_two_values_is_two_examples():
    two = SLIDES.replace(r"\end{document}", r"""\begin{frame}{Another query}
  \begin{itemize}
    \item $q_3 \cdot k_1 = 1{\cdot}3 + 1{\cdot}1 + 2{\cdot}4 = 12$
  \end{itemize}
  \node at (0, 0) {$q_3 \cdot k_1 = 12$};
\end{frame}
\end{document}""")
    # q_3·k_1 is 15 in the first frame and 12 in the last: neither quote is judged against the other's line
    assert not _errors(two), [f.describe() for f in _errors(two)]


def test_a_quote_that_is_the_scaled_score_under_the_same_name_is_not_judged():
    # 15/√3 = 8.66: the same name quoted after the scaling is the scaled score, not a slip of 15
    scaled = SLIDES.replace(r"k_1 = \mathbf{15}", r"k_1 = \mathbf{8.66}", 1)
    assert not _errors(scaled), [f.describe() for f in _errors(scaled)]
