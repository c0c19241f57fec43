r"""A matrix whose rows are captioned by a second, wordy matrix set beside it in the same display:
`$$V = \begin{bmatrix} 1.0 & 3.0 \\ 5.0 & 2.0 \end{bmatrix} \begin{matrix} \text{(token 1)} \\ \text{(token 2)}
\end{matrix}$$`.  The pair was read as a product of two matrices, the second with no numbers, so Q, K and V were
lost and the output of the page was left unchecked (a book chapter's walkthrough in t230a).  A matrix of words
beside a matrix of numbers captions its rows (readers/statements.py).  My own matrices."""

import numpy as np

Q = np.array([[1.0, 0.0], [1.0, 2.0]])
K = np.array([[2.0, 0.0], [1.0, 1.0]])
V = np.array([[1.0, 3.0], [5.0, 2.0]])


def _display(name, m):
    rows = r" \\ ".join(" & ".join(f"{v:.1f}" for v in r) for r in m)
    return (f"$$ {name} = \\begin{{bmatrix}} {rows} \\end{{bmatrix}} \\begin{{matrix}} \\text{{(token 1: cat)}} "
            r"\\ \text{(token 2: sat)} \end{matrix} $$")


def _page(out=None):
    s = Q @ K.T / np.sqrt(2)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    o = a @ V if out is None else out
    rows = r" \\ ".join(" & ".join(f"{v:.3f}" for v in r) for r in o)
    return "\n\n".join(["# Two tokens", "The projections give:", _display("Q", Q), _display("K", K), _display("V", V),
                        "Scaled by $\\sqrt{2}$, softmaxed and applied to the values, the output is:",
                        f"$$ \\text{{Output}} = \\begin{{bmatrix}} {rows} \\end{{bmatrix}} $$", ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_captioned_inputs_are_read_and_the_output_holds():
    r = _report(_page())
    assert r.errors == [] and "Q, K, V given" in " ".join(map(str, r.configuration.values())), r.configuration


def test_a_slip_in_the_output_is_found():
    s = Q @ K.T / np.sqrt(2)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    o = (e / e.sum(axis=1, keepdims=True)) @ V
    o[1, 0] += 0.02
    assert [f.printed for f in _report(_page(o)).errors] == [f"{o[1, 0]:.3f}"]
