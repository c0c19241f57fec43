"""A LaTeX problem set (a public Portuguese one drew fifteen false findings): the options of a multiple-choice
question, each an inline formula that opens with a relation (`\\item $\\approx 0.731$.`), were read as one chain of
equalities with the question's last number and with each other; a count in parentheses after words set in code
type (`\\texttt{on}, \\texttt{mat} ($=5$)`) as the end of the formula before it.  Neither continues anything."""

from mha.check import check_document

SHEET = r"""\documentclass{article}
\usepackage{enumitem}
\begin{document}
\section{Softmax com temperatura}

\item Os \textit{logits} $z = [\,2,\; 1\,]$ e a temperatura $\tau = 0.5$: qual é a maior probabilidade?

\begin{enumerate}[a)]
    \item $\approx 0.881$.
    \item $\approx 0.731$.
    \item $\approx 0.622$.
\end{enumerate}

\section{BLEU}

Unigramas: casam \texttt{the}, \texttt{cat}, \texttt{sat}, \texttt{on}, \texttt{mat} ($=5$); logo
$p_1 = 5/6 \approx {p}$.
\end{document}
"""


def test_options_and_counts_are_not_chained_to_the_formula_before():
    r = check_document(SHEET.replace("{p}", "0.833"), fmt="tex")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(SHEET.replace("{p}", "0.838"), fmt="tex")
    assert [(f.line, f.printed) for f in r.errors] == [(17, "0.838")], [f.describe() for f in r.findings]
