"""Cross-attention worked in prose (trial t174c, lecture notes): the decoder's queries, the encoder's keys and values
in one display, each with a subscript in \\text{}, then the first query's weights and its output written as a sum
of rounded terms (`0 - 0.0808 + 0.6744 + 0.3280 = 0.9214`, the total worked at full precision, two units below the
rounded terms' sum).  The checker read one query against its keys and, reading no values, took the keys for them:
the written total was then judged against that guess, or against its rounded terms with the guess's strictness
(a false "arithmetic slip").  Outputs judged under values the checker guessed are not checked unless a printed
output bears the guess out, and a line the configuration's values say nothing of keeps the room its rounded terms
need.  This page of my own, built the same way, was clean before the fix too (the trial's page needed more of its
own context to go wrong); it guards that the page stays clean and that a slipped weight on it is still found.
My own matrices; every number is NumPy's."""

import numpy as np

from mha.check import check_document

K = np.array([[-1.0, 1.0], [-1.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
V = np.array([[0.0, -1.0], [-1.0, -1.0], [1.0, 2.0], [2.0, 1.0]])
q = np.array([1.0, 0.0])


def _tex(m):
    return r"\begin{bmatrix}" + r"\\".join("&".join(f"{x:g}" for x in r) for r in m) + r"\end{bmatrix}"


def _page():
    s = K @ q / np.sqrt(2)
    w = np.exp(s - s.max())
    w /= w.sum()
    o = w @ V
    wr = np.round(w, 4)
    terms = " + ".join(f"{a:.4f}({v:g})" for a, v in zip(wr, V[:, 0]))
    written = " + ".join(f"{a * v:.4f}" for a, v in zip(wr, V[:, 0])).replace("+ -", "- ")
    return "\n".join([
        "# Cross-attention by hand", "",
        rf"$$\mathbf{{Q}}_{{\text{{dec}}}} = {_tex([q, [0, 1]])}_{{2\times2}},\quad \mathbf{{K}}_{{\text{{enc}}}} = "
        rf"{_tex(K)}_{{4\times2}},\quad \mathbf{{V}}_{{\text{{enc}}}} = {_tex(V)}_{{4\times2}}$$", "",
        f"Row 1 ($\\mathbf{{q}}_1 = [1,0]$), scaled: $[{', '.join(f'{x:.4f}' for x in s)}]$.", "",
        f"Weights: $\\boldsymbol{{\\alpha}}_1 = [{', '.join(f'{x:.4f}' for x in wr)}]$.", "",
        r"**Context, row 1** $= \sum_j \alpha_{1j}\mathbf{v}_j$:",
        f" first component $= {terms} = {written} = {o[0]:.4f}$.", "", "## Code", "", "```python",
        "import numpy as np", "", f"Q_dec = np.array({[q.tolist(), [0.0, 1.0]]})",
        f"K_enc = np.array({K.tolist()})", f"V_enc = np.array({V.tolist()})",
        "A = softmax(Q_dec @ K_enc.T / np.sqrt(2))", "ctx = A @ V_enc", "```", ""]), o


def test_a_total_worked_at_full_precision_is_no_slip():
    text, o = _page()
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_a_slipped_weight_is_still_found():
    text, _ = _page()
    s = K @ q / np.sqrt(2)
    w = np.exp(s - s.max())
    w /= w.sum()
    right = f"[{', '.join(f'{x:.4f}' for x in np.round(w, 4))}]"
    wrong = right.replace(f"{np.round(w, 4)[2]:.4f}", f"{np.round(w, 4)[2] + 0.01:.4f}", 1)
    r = check_document(text.replace(right, wrong), fmt="md")
    assert any(f.line == 7 for f in r.errors), [f.describe() for f in r.findings]
