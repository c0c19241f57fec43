"""`mha check` on the habits of a fifth field set (notebooks and pages written by others, never read before it was
scored): a second example that rebinds X in code, NumPy's `1.`/`0.` printouts, float32 printed to 8 decimals, a
masked printout between two softmax prints, a `768 @ 768 = 768` size note, and a sum followed by the next line's
products.  Every document below was written for these tests; its numbers are computed here with NumPy (float64,
or float32 where the habit is float32), independently of the checker."""

import numpy as np

from mha.check import check_document


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _errors(doc: str, fmt: str = "md") -> list:
    return check_document(doc, fmt=fmt).errors


def _line_of(doc: str, text: str) -> int:
    return next(k for k, line in enumerate(doc.splitlines(), 1) if text in line)


# ------------------------------------------------------------------ a second example rebinding X in code

X1 = np.array([[0.5, 1.0, 0.0], [1.0, 0.2, 0.4], [0.0, 0.6, 1.0]])
WQ = np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.5], [0.5, 0.0, 1.0]])
WK = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
WV = np.array([[0.2, 1.0, 0.4], [0.6, 0.2, 1.0], [1.0, 0.4, 0.2]])
X2 = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])


def _two_examples() -> tuple[str, np.ndarray]:
    Q, K, V = X1 @ WQ, X1 @ WK, X1 @ WV
    A = softmax(Q @ K.T / np.sqrt(3))
    A2 = softmax(X2 @ X2.T / np.sqrt(3) + np.triu(np.full((3, 3), -np.inf), 1))
    doc = f"""# Attention on three tokens

```python
X = np.array({X1.tolist()})
W_Q = np.array({WQ.tolist()})
W_K = np.array({WK.tolist()})
W_V = np.array({WV.tolist()})
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
print(Q)
print(V)
weights = softmax(Q @ K.T / np.sqrt(3))
print(weights)
print(weights @ V)
```

```text
{Q}
{V}
{A}
{A @ V}
```

Now the same with no weights and a causal mask.

```python
X = np.array({X2.tolist()})
Q = K = V = X
weights = softmax(Q @ K.T / np.sqrt(3) + causal_mask)
print(Q)
print(weights)
print(weights @ V)
```

```text
{X2}
{A2}
{A2 @ X2}
```
"""
    return doc, A


def test_a_second_example_that_rebinds_x_in_code_is_not_judged_against_the_first():
    doc, _ = _two_examples()
    r = check_document(doc, fmt="md")
    assert r.errors == []
    assert any("given other values in code" in n.reason for n in r.not_checked)
    assert r.n_numbers >= 27          # the first example is still checked: Q, V, weights, output


def test_a_slip_in_the_first_example_is_still_found_beside_a_rebinding():
    doc, A = _two_examples()
    row = str(A).splitlines()[1]
    cells = row.strip(" []").split()
    slipped = row.replace(cells[1], cells[1][:3] + cells[1][4] + cells[1][3] + cells[1][5:], 1)
    assert slipped != row
    bad = doc.replace(row, slipped, 1)
    errors = _errors(bad)
    assert [f.line for f in errors] == [_line_of(bad, slipped)]


def test_numpy_whole_number_printouts_are_whole_numbers_not_units():
    # `[[1. 0. 1.]]` says each value is 0 or 1 (NumPy would print 0.26 otherwise): Q of another example printed so
    # matches the inferred Q in too few cells to be identified, and none of its cells is called wrong
    doc, _ = _two_examples()
    r = check_document(doc, fmt="md")
    assert not any(f.printed in ("0.", "1.") for f in r.findings)


# ------------------------------------------------------------------ float32 printed to eight decimals

def _float32_doc(slip: bool = False) -> str:
    X = np.array([[1.0, 0.0], [0.8, 0.2], [0.1, 0.9]], dtype=np.float32)
    S = (X @ X.T) / np.float32(np.sqrt(2))
    A = softmax(S).astype(np.float32)
    O = (A[:, :, None] * X[None]).sum(axis=1)
    text = repr(S)
    if slip:
        cell = f"{S[1, 1]:.8f}"
        text = text.replace(cell, cell[:4] + cell[5] + cell[4] + cell[6:], 1)
    return f"""# Self-attention with Q = K = V = X (float32)

```python
X = np.array({X.tolist()}, dtype=np.float32)
scores = (X @ X.T) / np.sqrt(2)
scores
```

```text
{text}
```

```python
weights = softmax(scores)
print(weights)
print(weights @ X)
```

```text
{A}
{O}
```
"""


def test_float32_printouts_are_read_at_float32_width():
    doc = _float32_doc()
    assert "0.70710677" in doc            # √½ in float32, 0.70710678 in float64: the habit under test
    assert _errors(doc) == []


def test_a_slip_in_a_float32_printout_is_still_found():
    bad = _float32_doc(slip=True)
    errors = _errors(bad)
    assert len(errors) == 1 and errors[0].step in ("scale", "scores")


# ------------------------------------------------------------------ a masked printout between two softmax prints

def _mask_doc(first=None) -> str:
    s = np.array([2.0, 0.5, -1.0])
    m = s.copy()
    m[1] = -1e9
    p, pm = softmax(s), softmax(m)
    with np.printoptions(precision=8):
        p_text = first or str(p)
        return f"""# Masking one position

```python
scores = np.array({s.tolist()})
masked = scores.copy(); masked[1] = -1e9
print("scores:", scores, "-> softmax", softmax(scores))
print("masked scores:", masked, "-> softmax", softmax(masked))
```

```text
scores: {s} -> softmax {p_text}
masked scores: {m} -> softmax {pm}
```
"""


def test_a_softmax_is_not_paired_with_the_softmax_printed_above_it():
    doc = _mask_doc()
    assert "-1.e+09" in doc
    assert _errors(doc) == []


def test_a_slip_in_the_first_softmax_print_is_found():
    s = softmax(np.array([2.0, 0.5, -1.0]))
    with np.printoptions(precision=8):
        good = str(s)
    cell = f"{s[1]:.8f}"
    bad_row = good.replace(cell, cell[:3] + cell[4] + cell[3] + cell[5:], 1)
    assert bad_row != good
    doc = _mask_doc(bad_row)
    errors = _errors(doc)
    assert len(errors) == 1 and errors[0].line == _line_of(doc, "scores: [")


# ------------------------------------------------------------------ `@` between sizes, a sum before products

def test_sizes_multiplied_with_at_are_a_shape_note():
    doc = """# Output projection

```python
heads = torch.cat(per_head, dim=-1)   # 8 × 64 = 512
out = heads @ W_o                     # 512 @ 512 = 512
```

A head's width is 512 / 8 = 64.
"""
    r = check_document(doc, fmt="md")
    assert r.errors == []
    slipped = doc.replace("8 × 64 = 512", "8 × 64 = 502")
    assert [f.line for f in _errors(slipped)] == [_line_of(slipped, "8 × 64 = 502")]


E = np.array([0.2, 0.4, 1.0])
W = np.array([[1.0, 0.2], [0.5, 0.4], [0.6, 0.1]])


def _sum_then_products(z: str) -> str:
    # the products of q[0] are 0.2, 0.2 and 0.6 (of a total 1.0), and the next line begins 0.2×0.2 + 0.4×...: read
    # as the shares of that sum, two of three would agree and the third (0.4 for 0.6) would be called wrong
    q = E @ W
    terms = lambda j: " + ".join(f"{a:g}×{b:g}" for a, b in zip(E, W[:, j]))            # noqa: E731
    prods = lambda j: " + ".join(f"{a * b:.1f}" for a, b in zip(E, W[:, j]))           # noqa: E731
    return f"""<html><body>
<h3>The query of the first token</h3>
<div>
q[0] = {terms(0)} = {prods(0)} = <strong>{z}</strong><br>
q[1] = {terms(1)} = {prods(1)} = <strong>{q[1]:.1f}</strong><br>
</div>
</body></html>
"""


def test_the_factors_of_the_next_line_are_not_shares_of_a_sum():
    assert f"{(E @ W)[0]:.1f}" == "1.0" and [round(x, 10) for x in E * W[:, 0]] == [0.2, 0.2, 0.6]
    doc = _sum_then_products("1.0")
    assert "q[1] = 0.2×0.2 + 0.4×0.4" in doc
    assert _errors(doc, "html") == []
    slipped = _sum_then_products("1.1")
    assert [f.line for f in _errors(slipped, "html")] == [_line_of(slipped, "= <strong>1.1")]


# ------------------------------------------------------------------ `x.shape, x` shown as a tuple

def _tuple_doc(slip: bool = False) -> tuple[str, str]:
    X = np.array([[0.3, 0.8, 0.1, 0.6], [0.9, 0.2, 0.5, 0.4], [0.1, 0.7, 0.6, 0.2]])
    Wq = np.round(np.eye(4) * 0.8 + 0.05, 2)
    Wk = np.round(np.eye(4) * 0.6 + 0.1, 2)
    Wv = np.round(np.eye(4) * 0.7 + 0.1, 2)
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    S = Q @ K.T / 2
    A = softmax(S)
    def pretty(M):        # IPython's display of (M.shape, M): the array on its own line, indented by one
        return f"({M.shape!r},\n " + repr(M).replace("\n", "\n ") + ")"
    shown = [pretty(S), pretty(A), pretty(A @ V)]
    row = shown[1].splitlines()[2]
    if slip:
        cell = row.split("[")[1].split(",")[0].strip()
        shown[1] = shown[1].replace(cell, cell[:3] + cell[4] + cell[3] + cell[5:], 1)
    doc = f"""# Step by step

```python
X = np.array({X.tolist()})
W_q = np.array({Wq.tolist()})
W_k = np.array({Wk.tolist()})
W_v = np.array({Wv.tolist()})
Q, K, V = X @ W_q, X @ W_k, X @ W_v
scaled = Q @ K.T / np.sqrt(4)
scaled.shape, scaled
```

```text
{shown[0]}
```

```python
weights = softmax(scaled)
weights.shape, weights
```

```text
{shown[1]}
```

```python
out = weights @ V
out.shape, out
```

```text
{shown[2]}
```
"""
    return doc, shown[1].splitlines()[2]


def test_arrays_shown_in_a_tuple_beside_their_shape_are_read_and_checked():
    doc, _ = _tuple_doc()
    assert "((3, 3),\n array([[" in doc
    r = check_document(doc, fmt="md")
    assert r.errors == [] and r.n_numbers >= 27


def test_a_slip_in_an_array_shown_in_a_tuple_is_found():
    bad, row = _tuple_doc(slip=True)
    assert [f.line for f in _errors(bad)] == [_line_of(bad, row)]


# ------------------------------------------------------------------ printouts named on their own lines

def _one_query_doc(slip: bool = False) -> tuple[str, str]:
    M = np.array([[0.2, 0.4, 0.1], [0.6, 0.3, 0.5], [0.9, 0.8, 0.7], [0.1, 0.5, 0.9], [0.4, 0.2, 0.6]])
    s = M[2] @ M.T
    w = softmax(s / np.sqrt(3))
    with np.printoptions(precision=8):
        lines = [f"scores {s}", f"scaled {s / np.sqrt(3)}", f"weights {w}", f"output {w @ M}"]
    if slip:
        cell = f"{w[3]:.8f}"
        lines[2] = lines[2].replace(cell, cell[:4] + cell[5] + cell[4] + cell[6:], 1)
    printed = "\n".join(lines)
    doc = f"""# One query against every key

```python
Q = K = V = np.array({M.tolist()})
scores = Q[2] @ K.T
print("scores", scores)
print("scaled", scores / np.sqrt(K.shape[1]))
weights = softmax(scores / np.sqrt(K.shape[1]))
print("weights", weights)
print("output", weights @ V)
```

```text
{printed}
```
"""
    return doc, lines[2]


def test_printouts_of_other_widths_each_named_on_its_line_are_separate():
    doc, _ = _one_query_doc()
    r = check_document(doc, fmt="md")
    assert r.errors == [] and not any("elided" in n.reason for n in r.not_checked)


def test_a_slip_in_a_weights_line_above_an_output_line_is_found():
    bad, line = _one_query_doc(slip=True)
    assert [f.line for f in _errors(bad)] == [_line_of(bad, line)]


def test_an_illustration_with_other_sizes_does_not_hide_the_printouts_after_it():
    # a code block illustrating the product on a smaller Q (2×2) before the notebook's own printouts: the printouts
    # after it are the configuration's again (they match it), so a slip there is still found
    doc, A = _two_examples()
    doc = doc.replace("```text\n", "How the product works on a small case:\n\n```python\nQ = np.array([[1.0, 2.0], "
                      "[3.0, 4.0]])\nprint(Q @ Q.T)\n```\n\n```text\n", 1)
    row = str(A).splitlines()[1]
    cells = row.strip(" []").split()
    slipped = row.replace(cells[1], cells[1][:3] + cells[1][4] + cells[1][3] + cells[1][5:], 1)
    bad = doc.replace(row, slipped, 1)
    assert _errors(doc) == []
    assert [f.line for f in _errors(bad)] == [_line_of(bad, slipped)]
