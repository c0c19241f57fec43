r"""Cross-attention in Bahdanau's letters: the decoder's state is `s_1` (`The decoder state $\mathbf{s}_1 = [1, 1]$`),
the query it becomes (an outside trial's page, t244c).  The lowercase s read as a row of the scores, and [1, 1]
held against the scores [1, 2] gave a false finding.  A lowercase s with one index, after the word "state", is a
hidden state.  My own page and numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

K = V = np.array([[1.0, 0.0], [0.0, 3.0]])
q = np.array([1.0, 1.0])


def _page(c2=None):
    s = q @ K.T
    w = softmax(s / np.sqrt(2))
    c = w @ V
    c2 = c2 or f"{c[1]:.4f}"
    return "\n".join([
        "### Keys and values", "",
        r"$$\mathbf{K} = \mathbf{V} = \begin{bmatrix} 1.0 & 0.0 \\ 0.0 & 3.0 \end{bmatrix}$$", "",
        "### The query", "", r"$$\mathbf{Q} = \begin{bmatrix} 1.0 & 1.0 \end{bmatrix}$$", "",
        "### Scores", "",
        rf"$$\mathbf{{Q}} \mathbf{{K}}^T = \begin{{bmatrix}} {s[0]:.1f} & {s[1]:.1f} \end{{bmatrix}}$$", "",
        rf"$$\mathbf{{S}} = \begin{{bmatrix}} {s[0] / np.sqrt(2):.6f} & {s[1] / np.sqrt(2):.6f} \end{{bmatrix}}$$", "",
        rf"$$\alpha = \begin{{bmatrix}} {w[0]:.6f} & {w[1]:.6f} \end{{bmatrix}}$$", "",
        rf"$$\mathbf{{C}} = \begin{{bmatrix}} {c[0]:.4f} & {c2} \end{{bmatrix}}$$", "",
        r"The decoder state $\mathbf{s}_1 = [1, 1]$ has gathered a context vector from both encoder tokens.", ""])


def test_the_decoder_state_is_no_row_of_scores():
    page = _page()
    assert [f for f in check_document(page, fmt="md").findings if f.severity == "error"] == []


def test_a_slip_in_the_context_is_found():
    c = softmax(q @ K.T / np.sqrt(2)) @ V
    wrong = f"{c[1] + 0.01:.4f}"
    page = _page(wrong)
    assert error_places(page) == [(line_of(page, wrong), wrong)]
