"""Forms of code and notation met on public pages (outside trials t122) that hid a whole example or made a false
finding:

* steps in code blocks of their own, under step headings ("### Step 3: Apply softmax"), with the scaled scores in
  one fence and made-up weights in the next: the fences, blank lines and the heading's "3" kept the two apart,
  so the softmax of the scores printed just above was never set against the weights (nine wrong weights passed);
* `WQ = torch.tensor([[...]]).requires_grad_(True)`: a literal with a method call after it was no literal, so an
  example given in code had no weights and nothing was checked;
* `[9]:`, the execution prompt nbsphinx puts before each cell of a notebook rendered as HTML: read as a number;
* `q(0)`, a query at position 0 (RoPE): a function's value, read as q times 0, so `q(0) = [1, 0, 1, 0]` was
  called wrong (every entry "should be 0")."""

import pytest

import mha.inputs
from mha.check import check_document
from mha.check import numbers as nb

STEPS = """# Three tokens, step by step

Q, K and V are given:

```
Q = [[1, 0], [0, 2], [1, 1]]
K = [[0, 1], [1, 0], [1, 1]]
V = [[2, 0], [0, 2], [1, 1]]
```

### Step 1: Scores

```
QK^T = [[0, 1, 1],
        [2, 0, 2],
        [1, 1, 2]]
```

### Step 2: Scale by √2

```
Scaled = [[0.00, 0.71, 0.71],
          [1.41, 0.00, 1.41],
          [0.71, 0.71, 1.41]]
```

### Step 3: Apply softmax to each row

```
Weights = [[0.20, 0.40, 0.40],
           [0.45, 0.11, 0.45],
           [0.25, 0.25, 0.50]]
```
"""


def test_the_steps_check_clean():
    r = check_document(STEPS, fmt="md")
    assert not r.errors and r.n_numbers >= 27, ([f.describe() for f in r.errors], r.n_numbers)


def test_made_up_weights_under_a_step_heading_are_set_against_the_scores_above():
    made_up = STEPS.replace("[[0.20, 0.40, 0.40],\n           [0.45, 0.11, 0.45],",
                            "[[0.25, 0.35, 0.40],\n           [0.40, 0.20, 0.40],")
    assert made_up != STEPS
    r = check_document(made_up, fmt="md")
    assert sorted({(f.line, f.printed) for f in r.errors}) == \
        [(30, "0.25"), (30, "0.35"), (31, "0.20"), (31, "0.40")], [f.describe() for f in r.findings]


def test_a_number_on_a_line_between_keeps_them_apart():
    """A line with a number of its own between them (a temperature) may change what the softmax is taken of."""
    text = STEPS.replace("### Step 3: Apply softmax to each row", "Apply softmax at temperature T = 2")
    made_up = text.replace("[[0.20, 0.40, 0.40],", "[[0.25, 0.35, 0.40],")
    r = check_document(made_up, fmt="md")
    assert not any(f.line == 30 and f.printed == "0.35" and "beside" in (f.cause or "") for f in r.errors), \
        [f.describe() for f in r.errors]


NOTEBOOK_HTML = """<html><body>
<h1>Self-attention in PyTorch</h1>
<div class="nbinput"><div class="prompt"><pre><span></span>[1]:
</pre></div>
<div class="input_area"><pre><span></span>import torch
X = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
WQ = torch.tensor([[0.5, 0.1], [0.2, 0.4]]).requires_grad_(True)
WK = torch.tensor([[0.3, 0.2], [0.1, 0.6]]).requires_grad_(True)
WV = torch.tensor([[1.0, 0.5], [0.5, 1.0]]).requires_grad_(True)
Q = X @ WQ
print(Q)
</pre></div></div>
<div class="nboutput"><div class="prompt"><pre><span></span>[1]:
</pre></div>
<div class="output_area"><pre>tensor([[0.5000, 0.1000],
        [0.2000, 0.4000],
        [0.7000, 0.5000]], grad_fn=&lt;MmBackward0&gt;)
</pre></div></div>
</body></html>
"""


def test_a_literal_with_requires_grad_is_read_and_prompts_are_not():
    r = check_document(NOTEBOOK_HTML, fmt="html")
    assert r.configuration["mode"] == "X and weights", r.configuration
    assert not r.errors and r.n_numbers >= 6, ([f.describe() for f in r.errors], r.n_numbers)
    assert not r.not_checked, r.not_checked            # no "[1]:" read as a 1×1 object
    r = check_document(NOTEBOOK_HTML.replace("[0.7000, 0.5000]", "[0.7000, 0.6000]"), fmt="html")
    assert [f.printed for f in r.errors] == ["0.6000"], [f.describe() for f in r.findings]


def _first_part(text: str):
    from mha.check.readers import read_document, sniff
    doc = read_document(text, sniff(text, "page.md"))
    return next(c.parts[0] for c in doc.chains if c.place.line == 3)


@pytest.mark.parametrize("written, product", [(r"\tilde{\mathbf{q}}(0)", False), ("q(0)", False), ("PE(3)", False),
                                               ("2(0.5)", True)])
def test_a_symbol_before_a_number_in_parentheses_is_a_function_value(written, product):
    """`q̃(0) = [1, 0, 1, 0]`: the rotated query at position 0, not q̃ × 0 (which made every entry "0")."""
    part = _first_part(f"# Positions\n\nAt the start, ${written} = [1, 0, 1, 0]$ holds.\n")
    expr = getattr(part, "expr", None)
    assert (isinstance(expr, nb.Op) and expr.op == "*") is product, part


ROLE_MATRICES = """# Atención con dos tokens

| Matriz | Valores |
|--------|---------|
| Consulta (Q) | `[[2.0, 0.0], [0.0, 2.0]]` (diagonal) |
| Clave (K) | `[[2.0, 0.0], [0.0, 2.0]]` (diagonal) |
| Valor (V) | `[[1.0, 3.0], [5.0, 7.0]]` |

Pesos de atención:

```
[[0.944, 0.056],
 [0.056, 0.944]]
```

Salida:

```
[[1.22, 3.22],
 [4.78, 6.78]]
```
"""


def test_whole_matrices_given_in_a_table_by_their_roles():
    """| Query (Q) | `[[..], [..]]` (a remark) |: each role's matrix in one cell (the page was refused: "the numbers
    found are the inputs only")."""
    r = check_document(ROLE_MATRICES, fmt="md")
    assert "Q, K, V given" in r.configuration["mode"], r.configuration
    assert not r.errors and r.n_numbers >= 8, ([f.describe() for f in r.errors], r.n_numbers)
    r = check_document(ROLE_MATRICES.replace("[4.78, 6.78]", "[4.78, 6.87]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(20, "6.87")], [f.describe() for f in r.findings]


def test_an_image_embedded_as_base64_is_not_read():
    """`![fig](data:image/png;base64,...)`: the encoded text has runs like "/3x7" and "Vv8x3B" that were read as
    shape statements (two false findings on a notebook's markdown cell)."""
    from mha.check.readers import read_document, sniff
    blob = "iVBORw0KGgoAAAANSUhEUgAAA2MAAAIiQa58r/6kqMZuPQw/3x7/sbXUy+WqPLmZtHe/8x3/DpfAAAElFTkSuQmCC"
    text = f"# A figure\n\n![attention heads](data:image/png;base64,{blob})\n\nQ has shape 3x2.\n"
    doc = read_document(text, sniff(text, "page.md"))
    assert not [c.text for c in doc.chains if c.place.line == 3], [c.text for c in doc.chains]


ESCAPED = r"""# Weights for each word

*   Attention weights for "sun":
    *   Softmax(0.40, 0.10, 0.70) ≈ \[0.32, 0.24, 0.44]
*   Attention weights for "sets":
    *   Softmax(0.20, 0.90, 0.30) ≈ \[0.24, 0.49, 0.27]

The display $\[ x_i \]$ and this one stay mathematics:

\[ \mathrm{softmax}(z)_i = \frac{e^{z_i}}{\sum_j e^{z_j}} \]
"""


def test_a_bracket_escaped_by_a_converter_is_a_bracket():
    r"""`≈ \[0.28, 0.23, 0.49]` (Markdown written out from HTML escapes the bracket): the weights went unread, and a
    page whose nine weights were all wrong passed."""
    r = check_document(ESCAPED, fmt="md")
    assert not r.errors and r.n_numbers >= 6, ([f.describe() for f in r.errors], r.n_numbers)
    r = check_document(ESCAPED.replace(r"\[0.24, 0.49, 0.27]", r"\[0.24, 0.51, 0.27]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, "0.51")], [f.describe() for f in r.findings]


SIDE_BY_SIDE = """# Given projections

```text
Q = K = [[2,0],       V = [[1,1],
         [0,1],            [0,2],
         [1,1]]            [2,0]]

A = [[0.7679, 0.0454, 0.1867],
     [0.1978, 0.4011, 0.4011],
     [0.4011, 0.1978, 0.4011]]

A V = [[1.1413, 0.8587],
       [1.0000, 1.0000],
       [1.2033, 0.7967]]
```
"""


def test_matrices_typed_side_by_side():
    """Q = K = [[..], ... and V = [[..], ... side by side over three lines: V's rows ran on from Q's, V went unread
    and every output was "not checked (no V is given)"."""
    text = SIDE_BY_SIDE
    r = check_document(text, fmt="md")
    assert "Q, K, V given" in r.configuration["mode"], r.configuration
    assert not r.errors and r.n_numbers >= 15, ([f.describe() for f in r.errors], r.n_numbers)
    r = check_document(text.replace("[1.2033, 0.7967]", "[1.2033, 0.7976]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.7976")], [f.describe() for f in r.findings]


def test_a_matrix_given_row_by_row_in_a_sentence():
    """"`W_Q`'s rows are `[..]`, `[..]`, `[..]` and `[..]`": one matrix, read whole (its first row alone was read
    as a 1×4 W_Q, and a correct "Wq (4x4)" later was called a wrong shape)."""
    from mha.check.readers import read_document, sniff
    text = ("# Rows in prose\n\nThe input is `x = [0, 1, 1, 0]`.\n\nRow by row: `W_Q`'s rows are `[0.1, 0.1, 0, 0]`, "
            "`[0.5, 0.5, 0, 0]`, `[0.5, 0, 0, 0]` and `[0, 0, 0.5, 0.5]`, so `q = [1.0, 0.5, 0, 0]`.\n")
    doc = read_document(text, sniff(text, "page.md"))
    assert [(a.label, a.shape) for a in doc.arrays if a.line == 5][0] == ("W_Q", (4, 4)), \
        [(a.label, a.shape) for a in doc.arrays]


def test_a_stated_shape_is_not_judged_against_a_weight_read_as_one_row():
    text = ("# Weights\n\n`x = [0, 1, 1, 0]` and `W_Q = [0.1, 0.1, 0, 0]`, so `q = [0.2, 0.2, 0, 0]`.\n\n"
            "Exercise: define Wq (4x4) and Wk (4x4) of your own.\n")
    try:
        r = check_document(text, fmt="md")
    except mha.inputs.MHAInputError:
        return          # (since the weight W_Q = I is assumed, its stated shape is no claim: nothing left to check)
    assert not [f for f in r.errors if f.claim.startswith("shape of")], [f.describe() for f in r.errors]


TF_REPR = """# Attention in TensorFlow

```
Q : [[[1. 0. 1. 0.]
  [0. 1. 0. 1.]]]
K : [[[1. 0. 1. 0.]
  [0. 1. 0. 1.]]]
V : [[[1. 2. 3. 4.]
  [5. 6. 7. 8.]]]
```

```
<tf.Tensor: shape=(1, 2, 2), dtype=float32, numpy=
array([[[0.7310586, 0.26894143],
        [0.26894143, 0.7310586]]], dtype=float32)>
```

```
<tf.Tensor: shape=(1, 2, 4), dtype=float32, numpy=
array([[[2.0757656, 3.0757656, 4.0757656, 5.0757656],
        [3.9242344, 4.9242344, 5.9242344, 6.9242344]]], dtype=float32)>
```
"""


def test_tensorflows_repr_of_a_tensor_is_read():
    """`<tf.Tensor: ..., numpy=array(..., dtype=float32)>`: the closing `>` hid the array (the page was refused)."""
    r = check_document(TF_REPR, fmt="md")
    assert not r.errors and r.n_numbers >= 8, ([f.describe() for f in r.errors], r.n_numbers)
    r = check_document(TF_REPR.replace("4.9242344", "4.9252344"), fmt="md")
    assert [f.printed for f in r.errors] == ["4.9252344"], [f.describe() for f in r.findings]


def test_a_large_pasted_image_does_not_count_as_numbers():
    """A figure pasted as base64 whose text holds thousands of digit runs: the page is not refused as a data dump
    (more than 10,000 numbers), and its example is checked."""
    blob = "iVBORw0KGgo" + "Qa58r/6kqMZ1u2PQw/3x7/sb" * 6000 + "AAAElFTkSuQmCC"
    r = check_document(STEPS + f"\n![figure](data:image/png;base64,{blob})\n", fmt="md")
    assert not r.errors and r.n_numbers >= 27, ([f.describe() for f in r.errors], r.n_numbers)


def test_weights_typed_side_by_side_with_their_shapes():
    """`W_Q (3×2) = [[..],    W_K (3×2) = [[..],` over several lines (trial t172b): a name carrying its shape did
    not start a piece of the block, so the three weights read as one ragged text and none was given.  My numbers."""
    from mha.check.readers import read_document
    rows = [("[[1, 0],", "[[0, 1],", "[[1, 1],"), (" [0, 1],", " [1, 1],", " [0, 1],"), (" [1, 1]]", " [1, 0]]", " [1, 0]]")]
    lines = ["W_Q (3×2) = " + rows[0][0] + "    W_K (3×2) = " + rows[0][1] + "    W_V (3×2) = " + rows[0][2]]
    lines += ["            " + r[0] + "                " + r[1] + "                " + r[2] for r in rows[1:]]
    doc = read_document("# Weights\n\n```\n" + "\n".join(lines) + "\n```\n", "md")
    got = {a.label.split()[0]: [[n.value for n in r] for r in a.rows] for a in doc.arrays}
    assert got == {"W_Q": [[1, 0], [0, 1], [1, 1]], "W_K": [[0, 1], [1, 1], [1, 0]],
                   "W_V": [[1, 1], [0, 1], [1, 0]]}, got
