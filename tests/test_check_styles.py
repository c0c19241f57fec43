"""`mha check` on small documents written in other people's styles: a Markdown blog with a table, a notebook
with numpy and torch printouts, LaTeX notes with pmatrix, an HTML page with MathJax, plain text with matrices side
by side, code with glued line numbers; and what is not checked (an array that matches nothing, an object that
mostly disagrees). Every document below was written for these tests; its numbers come from mha.trace."""

import numpy as np

import mha
from mha.check import check_document
from check_helpers import DOC, needs_seed, numpy_rows, r4

def test_markdown_blog_with_code_comments_table_and_a_slip():
    X = [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]
    W = [[0.5, -0.5], [1.0, 0.0], [0.0, 1.0]]
    t = mha.trace({"X": X, "n_heads": 1, "W_Q": W, "W_K": W, "W_V": W, "scale": "none", "W_O": "none"})
    A, S = t.A[0, 0], t.QKt[0, 0]
    table = "\n".join(f"| query {i + 1} | " + " | ".join(r4(x) for x in A[i]) + " |" for i in range(3))
    doc = f"""# Unscaled attention in three lines of NumPy

I skip the $\\sqrt{{d_k}}$ on purpose here.

```python
x = [[1.0, 0.0, 2.0],
     [0.0, 1.0, 1.0],
     [1.0, 1.0, 0.0]]
W_q = W_k = W_v = [[0.5, -0.5], [1.0, 0.0], [0.0, 1.0]]
q = k = v = x @ W_q   # {[[float(x) for x in row] for row in t.Q[0]]}
scores = q @ k.T    # {[[float(x) for x in row] for row in S]}
```

The attention weights, one query per row:

| | key 1 | key 2 | key 3 |
|---|---|---|---|
{table}
"""
    r = check_document(doc, fmt="md")
    assert r.ok and r.n_numbers >= 20, [f.describe() for f in r.findings]
    assert "none" in r.configuration["scale"]
    # a swapped pair of digits in the table: found on its line, as a softmax slip
    bad = r4(A[1, 2])
    swapped = bad[:-2] + bad[-1] + bad[-2]
    assume_distinct = swapped != bad
    assert assume_distinct
    line = doc.split("\n").index(next(x for x in doc.split("\n") if x.startswith("| query 2"))) + 1
    r2 = check_document(doc.replace(f"| query 2 | {r4(A[1, 0])} | {r4(A[1, 1])} | {bad} |",
                                    f"| query 2 | {r4(A[1, 0])} | {r4(A[1, 1])} | {swapped} |"), fmt="md")
    assert [(f.line, f.step) for f in r2.errors] == [(line, "softmax")]
    assert r2.errors[0].kind == "swapped_digits"
    # a wrong entry of the keys written in a code comment: found on that line, as a projection slip
    r3 = check_document(doc.replace(f"{float(S[0, 0])}, ", f"{float(S[0, 0]) + 1}, ", 1), fmt="md")
    assert [(f.line, f.step) for f in r3.errors] == [(11, "scores")]


def test_notebook_with_numpy_and_torch_printouts_locates_cells():
    import nbformat
    X = np.array([[0.2, 0.4], [1.0, -0.5], [0.3, 0.3]])
    t = mha.trace({"X": X.tolist(), "n_heads": 1, "W_O": "none"})
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Self-attention with identity weights\n\nOne head, $d_k = 2$, scaled."),
        nbformat.v4.new_code_cell("import numpy as np\nX = np.array([[0.2, 0.4], [1.0, -0.5], [0.3, 0.3]])"),
        nbformat.v4.new_code_cell("scores = X @ X.T / np.sqrt(2)\nprint(scores)",
                                  outputs=[nbformat.v4.new_output("stream", text=numpy_rows(t.S[0, 0], 8) + "\n")]),
        nbformat.v4.new_code_cell("weights = softmax(scores)\nweights",
                                  outputs=[nbformat.v4.new_output(
                                      "execute_result", data={"text/plain": "tensor(" + numpy_rows(
                                          t.A[0, 0]).replace(" ", ", ").replace("[,", "[") + ")"},
                                      execution_count=3)]),
    ]
    text = nbformat.writes(nb)
    r = check_document(text, fmt="ipynb")
    assert r.ok and r.n_numbers >= 15, [f.describe() for f in r.findings]
    wrong = r4(t.A[0, 0, 2, 1])
    slipped = text.replace(wrong, r4(t.A[0, 0, 2, 1] + 0.1), 1)
    r2 = check_document(slipped, fmt="ipynb")
    assert [(f.cell, f.line, f.step) for f in r2.errors] == [(4, 3, "softmax")]
    assert "cell 4, line 3" in r2.errors[0].describe()


def test_latex_lecture_notes_with_pmatrix_frac_and_per_head_weights():
    X = [[1, 0], [0, 1], [1, 1]]
    P = [[0, 1], [1, 0]]
    W = np.stack([np.eye(2), P])
    t = mha.trace({"X": X, "n_heads": 2, "W_Q": W, "W_K": W, "W_V": W, "W_O": "none"})

    def pm(M):
        return "\\begin{pmatrix} " + " \\\\ ".join(" & ".join(r4(x) for x in row) for row in M) + " \\end{pmatrix}"
    tex = f"""\\documentclass{{article}}
\\begin{{document}}
\\section{{Two heads}}
Let $X = \\begin{{pmatrix}} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{{pmatrix}}$, with $W_1^Q = W_1^K = W_1^V = I$ and
\\[ W_2^Q = W_2^K = W_2^V = \\begin{{pmatrix}} 0 & 1 \\\\ 1 & 0 \\end{{pmatrix}}. \\]
\\subsection{{Head 1}}
\\[ \\frac{{Q_1 K_1^\\top}}{{\\sqrt{{2}}}} = {pm(t.S[0, 0])} \\]
\\[ \\mathrm{{head}}_1 = {pm(t.O[0, 0])} \\]
\\subsection{{Head 2}}
\\[ \\mathrm{{head}}_2 = {pm(t.O[0, 1])} \\]
\\end{{document}}
"""
    r = check_document(tex, fmt="tex")
    assert r.ok and r.n_numbers >= 20, [f.describe() for f in r.findings]
    assert "per head" in r.configuration["W_Q"]
    # head 2 printed with head 1's values: a wrong-head finding on that line
    r2 = check_document(tex.replace(f"\\mathrm{{head}}_2 = {pm(t.O[0, 1])}", f"\\mathrm{{head}}_2 = {pm(t.O[0, 0])}"),
                        fmt="tex")
    assert r2.errors and {f.line for f in r2.errors} == {10}
    assert {f.step for f in r2.errors} == {"weighted_sum"} and {f.kind for f in r2.errors} == {"wrong_head"}


def test_html_page_with_mathjax_script_and_table_is_read():
    t = mha.trace({"Q": [[1, 0], [0, 2]], "K": [[1, 1], [0, 1], [2, 0]], "V": [[1, 0], [0, 1], [1, 1]],
                   "n_heads": 1})
    rows = "".join("<tr><th>q" + str(i + 1) + "</th>" + "".join(f"<td>{r4(x)}</td>" for x in t.A[0, 0, i]) + "</tr>"
                   for i in range(2))
    html = f"""<!DOCTYPE html><html><head><title>Q, K, V given</title>
<script>var x = [[9, 9], [9, 9]];</script></head><body>
<h1>Attention from given Q, K and V</h1>
<p>Let <script type="math/tex">Q = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 2 \\end{{bmatrix}}</script>,
<script type="math/tex">K = \\begin{{bmatrix}} 1 & 1 \\\\ 0 & 1 \\\\ 2 & 0 \\end{{bmatrix}}</script> and
<script type="math/tex">V = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{{bmatrix}}</script>.</p>
<table><caption>Attention weights $A$</caption><tr><th></th><th>k1</th><th>k2</th><th>k3</th></tr>{rows}</table>
<pre>output = [[{r4(t.O[0, 0, 0, 0])}, {r4(t.O[0, 0, 0, 1])}], [{r4(t.O[0, 0, 1, 0])}, {r4(t.O[0, 0, 1, 1])}]]</pre>
</body></html>"""
    r = check_document(html, fmt="html")
    assert r.ok and r.n_numbers >= 10, [f.describe() for f in r.findings]
    assert "Q, K, V given" in r.configuration["mode"]
    r2 = check_document(html.replace(f"<td>{r4(t.A[0, 0, 1, 2])}</td>", f"<td>{r4(-t.A[0, 0, 1, 2])}</td>"),
                        fmt="html")
    assert [(f.step, f.kind) for f in r2.errors] == [("softmax", "dropped_sign")]


def test_plain_text_with_matrices_side_by_side_and_an_arithmetic_slip():
    t = mha.trace({"Q": [[1, 0, 1], [0, 1, 1]], "K": [[1, 1, 0], [0, 1, 0], [1, 0, 1]],
                   "V": [[2, 0], [0, 2], [1, 1]], "n_heads": 1, "scale": "1/d_k"})
    S = t.S[0, 0]
    text = f"""Homework 3, problem 1 (scale by 1/d_k)

    Q = [ 1 0 1 ]     K = [ 1 1 0 ]     V = [ 2 0 ]
        [ 0 1 1 ]         [ 0 1 0 ]         [ 0 2 ]
                          [ 1 0 1 ]         [ 1 1 ]

q1.k1 = 1 + 0 + 0 = 1
q1.k3 = 1 + 0 + 1 = 2

S = [ {r4(S[0, 0])} {r4(S[0, 1])} {r4(S[0, 2])} ]
    [ {r4(S[1, 0])} {r4(S[1, 1])} {r4(S[1, 2])} ]
"""
    r = check_document(text, fmt="txt")
    assert r.ok and r.n_numbers >= 10 and r.n_claims >= 3, [f.describe() for f in r.findings]
    assert r.configuration["scale"] == "1/d_k"
    r2 = check_document(text.replace("q1.k3 = 1 + 0 + 1 = 2", "q1.k3 = 1 + 0 + 1 = 3"), fmt="txt")
    assert [(f.line, f.step, f.kind) for f in r2.errors] == [(8, "scores", "arithmetic")]


def test_weights_woven_side_by_side_and_rows_named_by_their_input():
    # nested lists pasted side by side and continued row by row; "[2,1] · Wk" names the row of K whose input
    # row is [2, 1]; "row 1:" and "row 2:" in one paragraph keep their own rows
    X = [[2, 1], [0, 1], [1, 3]]
    Wq, Wk, Wv = [[1, 0], [1, 1]], [[0, 1], [1, 1]], [[1, 1], [0, 1]]
    t = mha.trace({"X": X, "W_Q": Wq, "W_K": Wk, "W_V": Wv, "n_heads": 1})
    K = t.K[0]
    E = np.exp(t.S[0, 0])
    def v(r):
        return f"[{int(r[0])}, {int(r[1])}]"
    text = f"""Three tokens, each a 2-d embedding:
ant -> [2, 1]
bee -> [0, 1]
cat -> [1, 3]
The projections:
Wq = [[1, 0], Wk = [[0, 1], Wv = [[1, 1],
[1, 1]] [1, 1]] [0, 1]]
Keys:
cat: [1,3] · Wk = {v(K[2])}
ant: [2,1] · Wk = {v(K[0])}
bee: [0,1] · Wk = {v(K[1])}
Sums of exponentials:
row 1: sum = {r4(E[0, 0])} + {r4(E[0, 1])} + {r4(E[0, 2])} = {r4(E[0].sum())}
row 2: sum = {r4(E[1, 0])} + {r4(E[1, 1])} + {r4(E[1, 2])} = {r4(E[1].sum())}
"""
    r = check_document(text, fmt="txt")
    assert r.ok and not r.findings, [f.describe() for f in r.findings]
    assert "W_K printed at line 6" in r.configuration["W_K"]
    slip = text.replace(f"cat: [1,3] · Wk = {v(K[2])}", f"cat: [1,3] · Wk = [{int(K[2][0])}, {int(K[2][1]) + 1}]")
    r2 = check_document(slip, fmt="txt")
    assert [(f.line, f.step, f.claim) for f in r2.errors] == [(9, "projection", "K[3,2]")]


def test_without_a_configuration_the_written_out_arithmetic_is_still_checked():
    # a single query against two keys, no X and no Q/K/V matrices: nothing to infer, but every line of
    # arithmetic can be read at face value
    text = r"""# One score by hand

\[
s = (0.31)(0.72) + (0.45)(0.18) + (0.66)(0.29)
\]

\[
= 0.2232 + 0.0810 + 0.1914 \approx 0.4956
\]

\[
p = \frac{e^{0.4956}}{e^{0.4956} + e^{0.9}} \approx 0.40
\]
"""
    r = check_document(text, fmt="md")
    assert r.ok and r.n_claims >= 2 and "not inferred" in r.configuration["configuration"]
    # a wrong product: found on the line of the product's printed value
    r2 = check_document(text.replace("(0.45)(0.18)", "(0.45)(0.81)"), fmt="md")
    assert [(f.line, f.printed) for f in r2.errors] == [(8, "0.0810")]
    r3 = check_document(text.replace(r"\approx 0.40", r"\approx 0.04"), fmt="md")
    assert [(f.line, f.step) for f in r3.errors] == [(12, "softmax")]


def test_code_with_glued_line_numbers_and_shapes_written_beside_names():
    # code copied from a page that numbers its lines ("1X = ...", "2     [...]"), shapes written after a
    # name ("Q = X  [3, 2]"), and one dot product per line ("[1,0] · [1,1] = ...")
    text = """Scores by hand (Q = K = X, no projections, d_k = 2)

1X = [[1.0, 0.0],   # token 0
2     [1.0, 1.0],   # token 1
3     [0.0, 2.0]]   # token 2
4
5Q = X  [3, 2]
6K = X  [3, 2]

1scores[0][0] = [1,0] · [1,0] = 1×1 + 0×0 = 1.0
2scores[0][1] = [1,0] · [1,1] = 1×1 + 0×1 = 1.0
3scores[0][2] = [1,0] · [0,2] = 1×0 + 0×2 = 0.0
"""
    r = check_document(text, fmt="txt")
    assert r.ok and not r.findings and r.n_claims >= 4, [f.describe() for f in r.findings]
    assert "X from line 3" in r.configuration["X"]
    r2 = check_document(text.replace("1×1 + 0×1 = 1.0", "1×1 + 0×1 = 2.0"), fmt="txt")
    assert [(f.line, f.step) for f in r2.errors] == [(11, "scores")]


def test_an_unlabelled_vector_that_matches_nothing_is_reported_not_checked():
    doc = mha.explain(lang="en").to_markdown() + "\n\nSome other numbers: $[0.9, 0.1, 7.7]$\n"
    r = check_document(doc, fmt="md")
    assert r.ok and len(r.not_checked) == 1
    nc = r.not_checked[0]
    assert nc.line == doc.count("\n") and nc.reason.startswith("no label") and nc.nearest


def test_a_labelled_matrix_that_matches_nothing_is_one_not_checked_line_not_a_finding_per_entry():
    """Identity before verdict: none of its entries identifies it, so no entry is called wrong."""
    doc = mha.explain(lang="en").to_markdown() + "\n\n$$A^{(1)} = \\begin{bmatrix} 9 & 9 & 9 \\\\ 9 & 9 & 9 \\\\ " \
        "9 & 9 & 9 \\end{bmatrix}$$\n"
    r = check_document(doc, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    last = [n for n in r.not_checked if n.line == doc.count("\n")]
    assert len(last) == 1 and last[0].what.startswith("A") and last[0].nearest


@needs_seed
def test_an_object_that_mostly_disagrees_names_its_nearest_reading():
    """The seed's A^(2) printed without the 1/√d_k scale: every entry is the unscaled softmax, so the object is
    one finding ("the scale left out"), not nine."""
    t = mha.trace(mha.DOCUMENT_EXAMPLE)
    x = np.asarray(mha.DOCUMENT_EXAMPLE["X"], float)
    S = x @ x.T                                    # identity weights: head 2's scores without the scale
    S2 = x[:, 2:] @ x[:, 2:].T
    e = np.exp(S2 - S2.max(axis=1, keepdims=True))
    A2 = e / e.sum(axis=1, keepdims=True)
    assert not np.allclose(A2, t.A[0, 1]) and S.shape == (3, 3)
    old = "0.5035& 0.2483& 0.2483\\\\ 0.2483& 0.5035& 0.2483\\\\ 0.3333& 0.3333& 0.3333"
    new = "\\\\ ".join("& ".join(r4(v) for v in row) for row in A2)
    r = check_document(DOC.replace(old, new), fmt="txt")
    assert len(r.errors) == 1 and r.errors[0].line == 333 and r.errors[0].kind == "missing_scale", \
        [f.describe() for f in r.errors]


def test_weights_that_agree_only_where_the_mask_puts_zeros_are_not_judged():
    """Causal weights from another run: row 1 (always [1, 0, 0]) and the zeros above the diagonal agree with any
    causal A, so they do not identify the matrix; without them 3 of 6 live entries match, and no entry is judged."""
    X = [[0.2, 0.5, 0.1], [0.6, 0.3, 0.9], [0.4, 0.8, 0.7]]
    config = {"X": X, "n_heads": 1, "W_Q": "identity", "W_K": "identity", "W_V": "identity", "W_O": "none",
              "causal": True, "scale": "none"}
    A = mha.trace(config).A[0, 0]
    doc = ("Final weights, from another run I kept:\n\n```\n[1.0, 0.0, 0.0]\n[0.57, 0.43, 0.0]\n"
           f"[{A[2, 0]:.4f}, {A[2, 1]:.4f}, 0.50]\n```\n")
    assert abs(A[1, 0] - 0.57) > 0.1 and abs(A[2, 2] - 0.50) > 0.05      # the run's other numbers really differ
    r = check_document(doc, config, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert len(r.not_checked) == 1 and "3×3" in r.not_checked[0].what


def test_woven_matrices_with_spaced_brackets():
    # "Q = [ [1, 0, 1, 0],      K = [ [1, 1, 0, 0]," then rows, closed by "] ]": the spaced brackets of a tutoring
    # note; both matrices are read (they were dropped, and a wrong score matrix below them went unquestioned)
    from mha.check.readers import read_document
    text = ("```\nQ = [ [1, 0, 1, 0],      K = [ [1, 1, 0, 0],\n      [0, 1, 0, 1],            [0, 1, 1, 0],\n"
            "      [1, 1, 0, 0] ]           [1, 0, 0, 1] ]\n```\n")
    doc = read_document(text, "md")
    assert [(a.label, a.n_rows, a.n_cols) for a in doc.arrays] == [("Q", 3, 4), ("K", 3, 4)]
    assert [[n.value for n in r] for r in doc.arrays[1].rows] == [[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1]]
