"""A LaTeX chapter that shows its code and the code's printout in two listings (t220e: `\\begin{lstlisting}` with
`print(out)`, then one holding `tensor([[0.6601, ...]])`).  Every listing was read as code, and a printout parses
as a bare expression, so the printed outputs were never read: slips in them were missed, and with nothing to tell
them apart the mask was guessed.  A listing that holds only a printout is read as output (readers/latex.py).  My own
Q, K and V, scaled by 1/√2, no mask."""

import numpy as np

from check_helpers import error_places, line_of

DOC = r"""\documentclass{article}
\usepackage{listings}
\begin{document}
\section{A first run}
\begin{lstlisting}
Q = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
K = torch.tensor([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
V = torch.tensor([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
out = attention(Q, K, V)
print(out)
\end{lstlisting}
The output:
\begin{lstlisting}
OUT
\end{lstlisting}
\end{document}
"""


def _out():
    q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    k = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    v = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    s = q @ k.T / np.sqrt(2)
    e = np.exp(s - s.max(1, keepdims=True))
    return (e / e.sum(1, keepdims=True)) @ v


def _printout(M):
    rows = [f"[{', '.join(f'{x:.4f}' for x in r)}]" for r in M]
    return "tensor([" + ",\n        ".join(rows) + "])"


def test_the_printed_output_is_read_and_holds():
    from mha.check import check_document
    r = check_document(DOC.replace("OUT", _printout(_out())), fmt="tex")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 6
    assert r.configuration["mask"] == "no mask"


def test_a_slip_in_the_printed_output_is_found():
    good = f"{_out()[2, 0]:.4f}"
    slipped = good[:2] + good[3] + good[2] + good[4:]          # 1.2552 -> 1.5252
    text = DOC.replace("OUT", _printout(_out()).replace(good, slipped))
    assert slipped != good and error_places(text, fmt="tex") == [(line_of(text, slipped), slipped)]
