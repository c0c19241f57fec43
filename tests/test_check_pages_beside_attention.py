"""Pages beside attention that the checker meets in the same books (t277c, LaTeX sources): a convolution's output
width, `(64 - 5) / 2 + 1 = 30`, divides with the quotient cut down, and measured ranges, `\\sim 0.88-2.15`\\%/K, are
no subtractions.  Both were called slips.

My own page: exercises on filters over small binary images, and a paragraph of measured slopes."""

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from check_helpers import clean_report, error_findings

_FILTERS = r"""\section{Filters on small images}

Suppose an input volume has shape $3 \times 48 \times 48$ and a bank of 16 filters of shape $3 \times 4 \times 4$
slides over it with stride 2.
\begin{itemize}
\item Height: $(48 - 4) / 2 + 1 = 44 / 2 + 1 = 22 + 1 = 23$
\item Width: $(48 - 5) / 2 + 1 = WIDTH$
\end{itemize}

\noindent
{\bf 1}. Slide the filter $\begin{pmatrix} 0 & 1 \\ 0 & 1 \end{pmatrix}$ over the binary input matrix
$\begin{pmatrix} 0 & 1 & 1 & 0 \\ 0 & 1 & 1 & 0 \\ 0 & 1 & 1 & 0 \end{pmatrix}$ with stride 1. What comes out?
{\bf Answer:} $\begin{pmatrix} 2 & 2 & 0 \\ 2 & 2 & 0 \end{pmatrix}$.

\noindent
{\bf 2}. Slide the filter $\begin{pmatrix} 1 & 0 \\ 1 & 1 \end{pmatrix}$ over the binary input matrix
$\begin{pmatrix} 1 & 0 & 0 \\ 1 & 1 & 0 \\ 1 & 1 & 1 \end{pmatrix}$ with stride 1. What comes out?
{\bf Answer:} $\begin{pmatrix} 3 & 1 \\ 3 & 3 \end{pmatrix}$.
"""


def test_the_answers_are_right():
    # the page's answers, worked out here (a filter slid without flipping, as such exercises mean)
    def slide(F, X):
        return (sliding_window_view(np.array(X), (2, 2)) * np.array(F)).sum(axis=(-1, -2)).tolist()
    assert slide([[0, 1], [0, 1]], [[0, 1, 1, 0]] * 3) == [[2, 2, 0], [2, 2, 0]]
    assert slide([[1, 0], [1, 1]], [[1, 0, 0], [1, 1, 0], [1, 1, 1]]) == [[3, 1], [3, 3]]
    assert (48 - 5) // 2 + 1 == 22


def test_an_output_width_cut_down_holds():
    assert clean_report(_FILTERS.replace("WIDTH", "22"), fmt="latex").n_numbers >= 2


def test_a_slipped_output_width_is_found():
    found = error_findings(_FILTERS.replace("WIDTH", "28"), fmt="latex")
    assert [(f.line, f.printed) for f in found] == [(7, "28")]


_SLOPES = r"""One of the three samples gave slopes consistently larger,
$\frac{1}{\mu}\frac{d\mu}{dT}\sim 0.88-2.15$\%/K, than the other two,
$\frac{1}{\mu}\frac{d\mu}{dT}\sim 0.03-0.77$\%/K, over the same range of temperature.
The spread of the first is $2.15 - 0.88 = SPREAD$\%/K.
"""


@pytest.mark.parametrize("spread, found", [("1.27", []), ("1.37", ["1.37"])])
def test_measured_ranges_are_no_subtractions(spread, found):
    page = _SLOPES.replace("SPREAD", spread)
    assert [f.printed for f in error_findings(page, fmt="latex")] == found
