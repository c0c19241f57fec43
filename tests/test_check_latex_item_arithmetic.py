r"""A sum worked in the words of a beamer list (an outside trial's transformer slides, t260a):
`\item Sum = 1.22 + 1.65 + 1.11 = 3.98`, outside any math.  Only `\item name = value` was read as a statement, so
the sum's arithmetic went unjudged.  An item that writes the arithmetic out before its value is read as one chain.
My own numbers: the exponentials of 0.2, 0.5 and 0.1, rounded to two decimals."""

from check_helpers import error_findings

_SLIDE = r"""\documentclass{beamer}
\begin{document}
\begin{frame}{Softmax by hand}
\begin{itemize}
\item $e^{0.2} = 1.22$, $e^{0.5} = 1.65$, $e^{0.1} = 1.11$
\item Sum = 1.22 + 1.65 + 1.11 = TOTAL
\item Shares: 31\%, 41\%, 28\%
\end{itemize}
\end{frame}
\end{document}
"""


def test_an_item_sum_that_holds():
    assert error_findings(_SLIDE.replace("TOTAL", "3.98"), fmt="tex") == []


def test_a_wrong_item_sum_is_found():
    found = error_findings(_SLIDE.replace("TOTAL", "3.68"), fmt="tex")
    assert [(f.line, f.printed) for f in found] == [(6, "3.68")]
