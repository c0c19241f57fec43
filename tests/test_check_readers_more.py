"""Notations that `mha check` reads since the recall work on documents written by others (issue 18): matrices
opened and closed by a course's own macros, operators spaced with braces, a softmax named over an arrow, aligned
vector sums continued on the next line, and a printout repeated digit for digit.  Each test plants a slip and
checks it is found on its line, and that the clean text has no finding."""

import pytest

from mha.check import check_document
from mha.check.readers import read_document

ONE_QUERY = r"""The query $s$ against the three columns of $h$, unscaled:
$$
a = \text{softmax}\left(
\bpmat 2 & 0 & 1\\ 1 & 1 & 0\\ 0 & 1 & 2 \epmat^\top \bpmat 1\\ 1\\ 0 \epmat
\right) \approx \bpmat 0.665\\ 0.245\\ 0.090 \epmat
$$
```python
h = np.array([[2, 0, 1], [1, 1, 0], [0, 1, 2]])
s = np.array([1, 1, 0])
```
"""


def test_macro_matrices_are_read_as_matrices():
    doc = read_document(ONE_QUERY, "md")
    cols = [[n.text for n in r] for a in doc.arrays for r in a.rows if a.line == 5]
    assert ["0.665"] in cols and ["0.090"] in cols, cols


def test_a_one_number_wide_head_is_not_invented():
    # h read as X with identity weights: three heads one number wide once fitted s = [1, 1, 0] as a row of S
    r = check_document(ONE_QUERY, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "H = 3" not in str(r.configuration)


SLIDE = r"""\begin{frame}{Scores}
$q_1 \cdot k_2 = 3{\cdot}1 + 1{\cdot}2 + 0{\cdot}4 = 5$ and $q_1 \cdot k_3 = 3{\cdot}2 + 1{\cdot}1 + 0{\cdot}1 = 7$.
A GPU does about $3{\times}10^{14}$ operations per second.
\end{frame}
"""


def test_braced_operators_are_read_as_operators():
    assert not check_document(SLIDE, fmt="tex").errors
    r = check_document(SLIDE.replace("0{\\cdot}4 = 5", "0{\\cdot}4 = 6"), fmt="tex")
    assert [f.line for f in r.errors] == [2], [f.describe() for f in r.errors]


ARROW = r"""Scores of the last query, scaled, then normalised:
$$ [\,6,\; 2,\; 4\,] \xrightarrow{\ \div \sqrt{4}\ } [\,3.0,\; 1.0,\; 2.0\,] \xrightarrow{\ \text{softmax}\ } [\,0.665,\; 0.090,\; 0.245\,] $$
"""


def test_a_softmax_over_an_arrow_is_judged_against_the_vector_before_it():
    clean = check_document(ARROW, fmt="md")
    assert not clean.errors, [f.describe() for f in clean.errors]
    r = check_document(ARROW.replace("0.090,", "0.009,"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(2, "0.009")], [f.describe() for f in r.errors]


ALIGNED = r"""The context vector, one weighted value at a time:
$$
\begin{align}
c &= 0.6 \times [1.0, 2.0] + 0.4 \times [3.0, -1.0] \\
&= [0.6, 1.2] + [1.2, -0.4] \\
&= [1.8, 0.8]
\end{align}
$$
"""


def test_an_aligned_vector_sum_continues_on_the_next_line():
    assert not check_document(ALIGNED, fmt="md").errors
    r = check_document(ALIGNED.replace("&= [1.8, 0.8]", "&= [1.8, 0.6]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, "0.6")], [f.describe() for f in r.errors]


REPEATED = """```text
tensor([[[0.5123, 0.2871],
         [0.4410, 0.3302],
         [0.4781, 0.3015],
         [0.4599, 0.3188]],

        [[0.5123, 0.2871],
         [0.4410, 0.3302],
         [0.4781, 0.3015],
         [0.4599, 0.3188]]])
```
Run again on the other device:
```text
tensor([[[0.5123, 0.2871],
         [0.4410, 0.3302],
         [0.4781, 0.3015],
         [0.4599, 0.3188]]])
```
"""


def test_a_copy_of_a_repeated_printout_that_differs_in_one_entry_is_a_slip():
    from mha.check.claims.repeated import repeated_claims
    from mha.check.infer.prepare import prepare
    objs, _ = prepare(read_document(REPEATED, "md"))
    assert repeated_claims(objs) == []                        # three copies, all the same: nothing to say
    head, tail = REPEATED.split("Run again")
    slipped = head + "Run again" + tail.replace("[0.4781, 0.3015]", "[0.4718, 0.3015]")   # the re-run's copy
    claims = repeated_claims(prepare(read_document(slipped, "md"))[0])
    assert [(c.num.line, c.num.text, c.want.text, c.agree) for c in claims] == [(16, "0.4718", "0.4781", 2)]


def test_two_copies_that_differ_say_nothing_about_which_is_wrong():
    from mha.check.claims.repeated import repeated_claims
    from mha.check.infer.prepare import prepare
    two = REPEATED.split("Run again")[0].replace("[[0.5123, 0.2871],\n         [0.4410", "[[0.5123, 0.2817],\n         [0.4410", 1)
    assert repeated_claims(prepare(read_document(two, "md"))[0]) == []


_WORD_PRINTS = '''# A lab with words printed between the matrices

```python
import numpy as np

X = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
scores = X @ X.T
weights = softmax_rows(scores / np.sqrt(2))
out = weights @ X

print("lab one")
print("scores")
print(np.round(scores, 3))
print("weights")
print(np.round(weights, 3))
print("out")
print(np.round(out, 3))
```

What it prints:

```text
lab one
scores
[[4. 2. 0.]
 [2. 2. 1.]
 [0. 1. 1.]]
weights
[[0.768 0.187 0.045]
 [0.401 0.401 0.198]
 [0.198 0.401 0.401]]
out
[[1.723 0.232]
 [1.203 0.599]
 [0.797 0.802]]
```
'''


def test_a_word_printed_on_its_own_line_names_no_matrix():
    # print("weights") prints the word; the arrays after it are named by the prints of arrays, in order
    from mha.check.readers import read_document
    doc = read_document(_WORD_PRINTS, "md")
    assert [a.label for a in doc.arrays if a.place.line > 22] == \
        ["np.round(scores, 3)", "np.round(weights, 3)", "np.round(out, 3)"]
    assert not [f for f in check_document(_WORD_PRINTS, fmt="md").findings if f.severity == "error"]
    errs = [f for f in check_document(_WORD_PRINTS.replace("0.401 0.401 0.198", "0.401 0.410 0.198"),
                                      fmt="md").findings if f.severity == "error"]
    assert [(f.line, f.printed, f.step) for f in errs] == [(30, "0.410", "softmax")], [f.describe() for f in errs]


def test_an_expected_tensor_in_an_assert_carries_the_name_it_is_compared_with():
    """`expected = torch.tensor([...])` then `assert torch.allclose(weights, expected)`: the literal is the weights
    (readers/python._asserted_alike).  Two entries of a row swapped keep the row sum, so only the name finds them."""
    from pathlib import Path
    text = (Path(__file__).parent / "check_clean" / "md_expected_weights_in_an_assert.md").read_text(encoding="utf-8")
    assert not check_document(text, fmt="md").findings
    swapped = text.replace("[0.57597535, 0.14002925,", "[0.14002925, 0.57597535,")
    assert swapped != text
    r = check_document(swapped, fmt="md")
    assert {f.line for f in r.errors} == {21} and any(f.claim.startswith("A[2,") for f in r.errors), \
        [f.describe() for f in r.errors]


def test_an_inline_value_after_words_of_its_own_does_not_continue_the_math_before():
    """`$= 416{,}256$` after "identical shape" is the value of those words, not the next step of the span before
    (readers/markdown: worded_math); a display that starts with "=" right after another still goes on with it."""
    worded = ("Embedding: $30{,}000 \\times 300 = 9{,}000{,}000$.\n\n"
              "Second layer: identical shape $= 416{,}256$.\n\n"
              "Plus 30,000 biases\n$= 15{,}390{,}000$.\n")
    assert not check_document(worded, fmt="md").errors
    display = "$$ s = 0.22 \\times 0.54 + 0.64 \\times 0.36 $$\n\n$$ = 0.1188 + 0.2304 \\approx 0.394 $$\n"
    r = check_document(display, fmt="md")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.errors]


def test_rows_named_in_curly_quotes_keep_their_vectors():
    """`Row “fox” [2, 3, 1] → [...]`: a name in curly quotes before the array is its label, as in straight ones, so the
    arrow rows under a softmax heading are read (a slip in one of them is found on its line)."""
    from pathlib import Path
    text = (Path(__file__).parent / "check_clean" / "md_rows_of_scores_arrow_weights.md").read_text(encoding="utf-8")
    curly = text.replace('"red"', "“red”").replace('"fox"', "“fox”").replace('"runs"', "“runs”")
    assert curly != text and not check_document(curly, fmt="md").findings
    r = check_document(curly.replace("[0.24, 0.67, 0.09]", "[0.24, 0.76, 0.09]"), fmt="md")
    assert [f.line for f in r.errors] == [12], [f.describe() for f in r.errors]


def test_a_shape_in_parentheses_after_a_name_and_a_head_transposed_in_one_superscript():
    """`K^{(2)} (shape=3×2)` names head 2's K (the shape is no part of the name) and `K^{(2)T}` head 2's K
    transposed: without them a second head's printouts were matched to the first head by value."""
    from mha.check.labels import parse_label
    r = parse_label(r"K^{(2)}(shape=3*2)")
    assert r is not None and r.nodes == ("K",) and r.raw_head == 2 and not r.transposed
    t = parse_label(r"K^{(2)T}(shape=2*3)")
    assert t is not None and t.nodes == ("K",) and t.raw_head == 2 and t.transposed
    assert parse_label(r"K^{(2)\top}").transposed


def test_a_raw_subscript_names_the_unscaled_scores_or_a_projection_before_its_bias():
    """`S_{\\mathrm{raw}}` is Q Kᵀ before the scale; `K_{\\text{raw}}^{(2)}` is head 2's X W_K before its bias, a
    quantity no view holds: named, so never taken by its values for K of another head (an outside page printed
    both with a bias per head)."""
    from mha.check.labels import parse_label
    for text in (r"S_{\mathrm{raw}}^{(2)}", "S_raw", r"S_{{raw}}"):
        r = parse_label(text)
        assert r is not None and r.nodes == ("QKt",), text
    assert parse_label(r"S_{\mathrm{raw}}^{(2)}").raw_head == 2
    for text in (r"K_{\mathrm{raw}}^{(1)}", r"Q_{\text{raw}}", "V_raw", r"K_{{raw}}^{(2)}(shape=3*2)"):
        r = parse_label(text)
        assert r is not None and r.nodes == ("pre_bias",), text
    assert parse_label("S") is not None and parse_label("S").nodes != ("QKt",)


def test_a_bias_printed_per_head_is_joined_in_head_order():
    """b_K^{(1)} = [0.5, 0] and b_K^{(2)} = [0, 2] with weights printed per head: the projection's bias is
    [0.5, 0, 0, 2], and K^{(2)} is judged with head 2's own bias (and its rounding)."""
    from pathlib import Path
    doc = Path(__file__).parent / "check_clean" / "md_per_head_bias_raw_products.md"
    r = check_document(doc.read_text(encoding="utf-8"), fmt="md")
    assert r.configuration["b_K"].startswith("b_K per head") and r.configuration["b_Q"].startswith("b_Q per head")
    assert not r.findings and r.n_claims >= 15


def test_an_open_softmax_call_is_tied_only_to_the_row_that_finishes_it():
    """`softmax([..]) =` ending its line is finished by the next one-row array a few lines down when only the
    written-out softmax stands between them; a row named as something else (values), or one after other
    numbers, is not its result."""
    from mha.check.readers import read_document
    base = "softmax([0.5, 0.1, -0.2]) =\n  [e^0.5, e^0.1, e^-0.2] / Z\n\n{label}: [0.45, 0.30, 0.25]\n"
    for label, tied in (("Approximately", True), ("≈", True), ("Attention weights", True), ("Values", False),
                        ("k2", False)):
        doc = read_document(base.format(label=label), "txt")
        y = [a for a in doc.arrays if a.line == 4]
        assert len(y) == 1 and (y[0].softmax_of is not None) == tied, label
    doc = read_document("softmax([0.5, 0.1, -0.2]) =\n  other = [1.0, 2.0]\nApproximately: [0.45, 0.30, 0.25]\n",
                        "txt")
    assert all(a.softmax_of is None for a in doc.arrays)


def test_a_bare_result_is_a_weak_name():
    """`Result: [0.28, -0.08, -0.07]` under dot products worked line by line: 'Result' names whatever was just
    worked, so the values decide (it was taken for the output Y and left unchecked)."""
    from mha.check.labels import parse_label
    for text in ("Result", "result", "Final result", "结果"):
        r = parse_label(text)
        assert r is None or not r.strong, text
    assert parse_label("output").strong and parse_label("attn_output").strong


def test_truncation_is_the_documents_convention_only_when_no_cell_rounds():
    """A document whose printed cells follow truncation wherever truncation and rounding differ (and never
    rounding) is judged as cutting digits off; one rounded cell among them keeps rounding (claims/truncation.py)."""
    from pathlib import Path
    text = (Path(__file__).parent / "check_clean" / "md_digits_cut_off_not_rounded.md").read_text(encoding="utf-8")
    r = check_document(text, fmt="md")
    assert not r.findings and any("cut off" in e for e in r.evidence), r.evidence
    # round the scores instead: the weights and outputs still cut, the document no longer agrees with itself
    rounded = text.replace("2.886", "2.887").replace("1.154", "1.155")
    r = check_document(rounded, fmt="md")
    assert not any("cut off" in e for e in r.evidence)
    assert {f.line for f in r.errors} >= {25, 26}, [f.describe() for f in r.errors]


def test_a_size_in_prose_belongs_to_its_own_sentence_and_noun():
    """`$3\\times3$ convolution` is the kernel's size; a name in the sentence before is not its owner; in
    `Q×Kᵀ ... (3 × 3)` the size is the product's, not Q's; `K^TScores` (table cells run together) names nothing."""
    from mha.check.labels import parse_label
    from mha.check.readers import read_document

    def shapes(text):
        return [(c.parts[0].text, c.parts[1].dims) for c in read_document(text, "md").chains
                if len(c.parts) == 2 and type(c.parts[1]).__name__ == "ShapePart"]

    assert shapes(r"The residual carries $x_i$ along. A $3\times3$ convolution sees a fixed window.") == []
    assert shapes("잔차가 $x_i$를 실어 나른다. $3\\times3$ convolution은 고정된 창을 본다.") == []
    assert shapes("Dot product Q×Kᵀ gives (3 × 3).") == []
    assert shapes("Dot product Q×Kᵀ gives scores (3 × 3).") == [("scores", [3, 3])]
    assert shapes(r"The output $Y$ is a $3\times4$ matrix.") == [("Y", [3, 4])]
    assert shapes("Q is a 3×4 matrix. K is 3×4 too.") == [("Q", [3, 4]), ("K", [3, 4])]
    assert parse_label("K^TScores") is None and parse_label("KᵀScores") is None
    assert parse_label("K^T").transposed


_SPLIT_ASSUMED = r"""# 两个头的小例子

输入 $X=\begin{bmatrix}1&2&3&4\\4&3&2&1\end{bmatrix}$。

$$W_Q=\begin{bmatrix}1&0\\0&1\\1&0\\0&1\end{bmatrix}$$

$$Q=XW_Q=\begin{bmatrix}1&2\\4&3\end{bmatrix}$$

第一个头：

$$Q_1=QW_{Q_1}=\begin{bmatrix}1&2\\4&3\end{bmatrix}$$

第二个头：

$$Q_2=QW_{Q_2}=\begin{bmatrix}1&2\\4&3\end{bmatrix}$$

两个头，每个头 $d_k=2$。
"""


def test_no_wrong_head_finding_from_a_split_of_an_assumed_projection():
    """Q_2 printed with head 1's values is 'wrong head' only if the heads' split is known: with W_Q = I assumed
    where the page prints its own W_Q (and projects each head again), it is not (an outside page drew this false
    finding)."""
    r = check_document(_SPLIT_ASSUMED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.line == 15 and "assumed" in n.reason for n in r.not_checked), [n.reason for n in r.not_checked]


def test_rope_is_a_choice_only_where_the_text_names_it():
    from mha.check.infer.candidates import Options
    from mha.check.readers import read_document
    plain = read_document("X = [[1, 0], [0, 1]]\nA = [[0.67, 0.33], [0.33, 0.67]]\n", "txt")
    named = read_document("With RoPE applied to q and k:\nX = [[1, 0], [0, 1]]\n", "txt")
    import numpy as np
    from mha.check.infer.candidates import Choice
    dims = {"mode": Choice("X", "X"), "X": Choice(np.eye(2), "X"), "W_Q": Choice("identity", "W_Q = I"),
            "W_K": Choice("identity", "W_K = I"), "W_V": Choice("identity", "W_V = I")}
    assert [c.label for c in Options(plain, []).options(dims, "rope")] == ["no RoPE"]
    assert len(Options(named, []).options(dims, "rope")) == 3


def test_a_written_softmax_rounded_hard_is_allowed_one_unit_of_its_last_digit():
    """A written softmax judged against its own argument may round hard for readability, but an entry printed to
    two decimals more than one unit from the exact value (0.37 for 0.3567) is a slip (the allowance was one and a
    half units, so 0.37 passed on an outside page whose configuration left the line to this judge alone)."""
    from types import SimpleNamespace
    from mha.check.claims.applied import AppliedSoftmaxClaim, AppliedSoftmaxJudging
    from mha.check.numbers import Num

    class J(AppliedSoftmaxJudging):
        def __init__(self):
            self.n_claims = self.n_numbers = 0
            self.findings = []

        def add(self, f):
            self.findings.append(f)

    def judged(printed):
        row = [Num.parse(t, 1) for t in printed]
        y = SimpleNamespace(a=SimpleNamespace(rows=[row], line=1, place=SimpleNamespace(cell=None)))
        j = J()
        j.judge_applied_softmax(AppliedSoftmaxClaim(y, [Num.parse(t, 1) for t in ("0.122", "0.19", "0.26")]))
        return [f.printed for f in j.findings]

    assert judged(["0.31", "0.33", "0.36"]) == []
    assert judged(["0.30", "0.33", "0.36"]) == []          # 1.07 units, inside the argument's own rounding
    assert judged(["0.31", "0.33", "0.37"]) == ["0.37"]    # 1.33 units


def test_a_variant_subscript_names_the_variant_only_when_it_ends_the_name():
    """`A_{\\mathrm{causal}}` is the weights under a causal mask; in `O_{causal} = A_{\\mathrm{causal}}V` the
    product A·V is no A at all (a read set's output was judged as weights)."""
    from mha.check.labels import parse_label
    assert parse_label(r"A_{\mathrm{causal}}").nodes == ("A",)
    assert parse_label("O_unmasked^{(1)}").nodes[0] == "O"
    assert parse_label(r"A_{\mathrm{causal}}V") is None


def _three_scores_notebook(weights: str) -> str:
    import json
    out = lambda n, text: [{"output_type": "execute_result", "execution_count": n, "metadata": {},
                            "data": {"text/plain": text}}]
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Two tokens first, then one query and three keys"},
        {"cell_type": "code", "metadata": {}, "execution_count": 0,
         "source": "X = torch.tensor([[1., 0.], [0., 1.]])\nA = F.softmax(X @ X.T / 2 ** 0.5, dim=-1)\nA",
         "outputs": out(0, "tensor([[0.6698, 0.3302],\n        [0.3302, 0.6698]])")},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "score = q @ keys.T\nscore",
         "outputs": out(1, "tensor([1, 3, 2])")},
        {"cell_type": "code", "metadata": {}, "execution_count": 2, "source": "F.softmax(score.float(), dim=0)",
         "outputs": out(2, f"tensor([{weights}])")},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_three_weights_printed_from_a_softmax_called_on_a_printed_name():
    """`F.softmax(score.float(), dim=0)` printed after `score`: the code names the link, so even three weights are
    judged against the printed scores (the cast keeps the values); a read field notebook's slip was missed."""
    assert not check_document(_three_scores_notebook("0.0900, 0.6652, 0.2447"), name="s.ipynb").errors
    r = check_document(_three_scores_notebook("0.0900, 0.6652, 0.2474"), name="s.ipynb")
    assert [(f.cell, f.printed) for f in r.errors] == [(4, "0.2474")], [f.describe() for f in r.errors]


def test_weights_normalised_down_the_columns_are_one_finding():
    """`np.exp(S) / np.exp(S).sum(axis=0)`: every printed weight is the column-wise softmax of the scores, so the
    array is identified by that whole computation and gets one finding (an outside notebook's slip was left
    'not checked'); the row-wise version of the same page is clean."""
    from pathlib import Path
    text = (Path(__file__).parent / "check_clean" / "md_numpy_weights_each_row_sums_to_one.md").read_text(encoding="utf-8")
    rows = "[[0.303 , 0.4377, 0.2593],\n [0.4566, 0.263 , 0.2803],\n [0.4027, 0.3375, 0.2598]]"
    cols = "[[0.2498, 0.404 , 0.3115],\n [0.3685, 0.2377, 0.3296],\n [0.3818, 0.3583, 0.3588]]"
    assert text.count(rows) == 1 and "axis=-1" in text
    r = check_document(text.replace(rows, cols).replace("axis=-1", "axis=0"), fmt="md")
    assert [(f.line, f.kind) for f in r.errors] == [(24, "wrong_axis")], [f.describe() for f in r.errors]


def test_a_heading_names_the_matrix_under_it_only_when_it_is_a_symbol():
    from mha.check.readers import read_document
    body = "\n\n$$\n\\begin{bmatrix}\n1 & 0 \\\\\n0 & 1\n\\end{bmatrix}\n$$\n"
    for heading, label in (("#### $W_K$", "W_K"), ("#### Key matrix $K$", "K"), ("**V**", "V"),
                           ("## Step 2: multiply the inputs by the weights", ""), ("### Results", "")):
        doc = read_document(heading + body, "md")
        assert [a.label for a in doc.arrays] == [label], heading


_ROW_THEN_MATRIX = r"""# Weights row by row, then all together

$$X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad W_Q = W_K = W_V = I$$

Scores divided by $\sqrt{2}$ and passed through a softmax, one row at a time:

$$a_{1,\cdot} = [0.401,\ 0.198,\ 0.401]$$

$$a_{2,\cdot} = [0.198,\ 0.401,\ 0.401]$$

$$a_{3,\cdot} = [0.248,\ 0.248,\ {w}]$$

Put together:

$$A = \begin{bmatrix} 0.401 & 0.198 & 0.401 \\ 0.198 & 0.401 & 0.401 \\ 0.248 & 0.248 & {w} \end{bmatrix}$$
"""


def test_the_same_wrong_value_found_in_a_row_and_again_in_its_matrix_is_one_finding():
    r"""a_{3,\cdot} = [.., 0.504] (row 3 of A: the column wildcard names the row) and then A holding the same 0.504:
    one slip, one error on the row and a note on the matrix pointing to it (claims/requoted.repeated_errors; an
    outside page drew two errors)."""
    assert not check_document(_ROW_THEN_MATRIX.replace("{w}", "0.503"), fmt="md").findings
    r = check_document(_ROW_THEN_MATRIX.replace("{w}", "0.504"), fmt="md")
    assert sorted((f.line, f.severity) for f in r.findings) == [(11, "error"), (15, "note")], \
        [f.describe() for f in r.findings]


def test_an_unconfirmed_guess_of_x_is_said_in_the_evidence():
    """A page that starts from the heads' outputs: X is guessed as its first matrix and nothing computed from it is
    printed, so 'all claims hold' must say it speaks only of what the page writes out."""
    from pathlib import Path
    text = (Path(__file__).parent / "check_clean" / "md_heads_joined_shape_trace.md").read_text(encoding="utf-8")
    r = check_document(text, fmt="md")
    assert not r.findings and any("are a guess" in e for e in r.evidence), r.evidence
    seed_like = check_document((Path(__file__).parent / "check_clean" / "md_same_head_again_under_causal_mask.md")
                               .read_text(encoding="utf-8"), fmt="md")
    assert not any("are a guess" in e for e in seed_like.evidence)


def test_a_temperature_named_but_not_given_is_not_judged():
    """`softmax(scores / T) = [...]` beside the scores: a factor the label names without giving it; judged as the
    plain softmax it drew three false errors, so it is said to be unjudged."""
    r = check_document("```\nscores = [2.0, 1.0, 0.0]\nsoftmax(scores) = [0.665, 0.245, 0.090]\n```\n\n"
                       "```\nscores = [2.0, 1.0, 0.0]\nsoftmax(scores / T) = [0.867, 0.117, 0.016]\n```\n", fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any("temperature" in n.reason for n in r.not_checked), [n.reason for n in r.not_checked]


def test_two_equal_cells_of_one_matrix_both_wrong_are_two_findings():
    """A[1,3] and A[2,3] equal by symmetry and both printed wrong are two slips, not a quote of one (a read field
    page has them)."""
    text = ("```\nQ = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]\nK = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]\n"
            "V = [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]\n```\n\n"
            "```\nA = [[0.4555, 0.2246, 0.3200],\n     [0.2246, 0.4555, 0.3200],\n     [0.3333, 0.3333, 0.3333]]\n```\n")
    r = check_document(text, fmt="md")
    assert sorted(f.line for f in r.errors) == [8, 9], [f.describe() for f in r.findings]


def test_a_line_ending_in_a_colon_names_the_block_under_it_only_when_a_symbol():
    from mha.check.readers import read_document
    block = "\n\n```\n[[0.6405, 0.3595],\n [0.3595, 0.6405]]\n```\n"
    for said, label in (("Attention weights (after softmax):", ""), ("A:", "A"), ("W_Q:", "W_Q"),
                        ("Output:", ""), ("Example:", ""), ("Final weights, from another run I kept:", "")):
        doc = read_document(said + block, "md")
        assert [a.label for a in doc.arrays] == [label], said


def test_a_result_with_plain_thousands_commas_after_its_equals_sign():
    """`512 × 3 × 512 = 786,432 ≈ 0.8M` was read as 786 and called an arithmetic slip; a list such as [1,234, 5]
    keeps its commas."""
    text = "# Sizes\n\nThe projections hold 512 × 3 × 512 = {n} ≈ 0.8M weights, and 2 × 3 = 6.\n"
    assert not check_document(text.format(n="786,432"), fmt="md").errors
    r = check_document(text.format(n="768,432"), fmt="md")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.errors]
    from mha.check.readers.decimalcomma import _thousands
    assert _thousands("= 786,432 here") == "= 786432  here" and _thousands("[1,234, 5]") == "[1,234, 5]"
    # the terms of such a line group thousands too (a Spanish exam guide: four false errors when only the result
    # was read whole)
    assert _thousands("3 × 262,144 = 786,432") == "3 × 262144  = 786432 "
    terms = "# Sizes\n\nThe projections hold 3 × 262,144 = {n} weights, and 2 × 3 = 6.\n"
    assert not check_document(terms.format(n="786,432"), fmt="md").errors
    assert [f.line for f in check_document(terms.format(n="786,423"), fmt="md").errors] == [3]


def test_rounding_radii_of_an_input_printed_batch_by_batch_take_its_shape():
    """A notebook prints K of shape (4, 8, 16) as 32 rows: the radii of its printed entries came flattened and the
    bands crashed with a broadcast error (an outside notebook, before any report); they take the input's shape."""
    import numpy as np
    from mha.check.model import Views, bands, compute
    rng = np.random.default_rng(0)
    m = {"Q": rng.normal(size=(2, 3, 2)), "K": rng.normal(size=(2, 3, 2)), "V": rng.normal(size=(2, 3, 2)),
         "n_heads": 1}
    base = Views.of(compute(m))
    bands(m, {"K": np.full((6, 2), 5e-5), "V": np.full((5, 2), 5e-5)}, base)   # V's do not fit: no band from it
    widened = [v for v in base.views if v.node == "A" and np.max(v.band) > 0]
    assert widened, "K's rounding should widen the weights"


def test_scores_derived_from_the_given_ones_are_still_judged():
    """Starting from raw scores, `scaled = scores / 2` is derived, not the input given again: a slip in it is found
    (the rule for an input given again with other values first swallowed it, on a read field notebook)."""
    text = ("```\nscores = [[2.0, 4.0], [1.0, 3.0]]\nscaled = scores / 2 = [[1.0, {v}], [0.5, 1.5]]\n"
            "weights = softmax(scaled) = [[0.2689, 0.7311], [0.2689, 0.7311]]\n```\n")
    assert not check_document(text.format(v="2.0"), fmt="md").errors
    r = check_document(text.format(v="2.5"), fmt="md")
    assert [f.printed for f in r.errors] == ["2.5"], [f.describe() for f in r.findings]


# Readings outside pages got wrong, each a document that must draw no error:
# - `Q = embeddings` with `embeddings = np.random.randn(3, 4)`, then `print(weights.shape)  # (3, 3)`: the shapes of
#   that code's own example, not of the one-query example worked above it;
# - `Z = QK^T = [...]`: Z stands for the scores in some texts and for the output in others; with Q Kᵀ named in the
#   same chain the matrix holds (it drew "these are the values of Q Kᵀ").
_HOLD = {
    "random-inputs-shape": (
        "# One query\n\n```\nq = [1.0, 0.0]\nk1 = [1.0, 0.0]\nk2 = [0.0, 1.0]\nv1 = [1.0, 2.0]\nv2 = [3.0, 4.0]\n"
        "scores = [1.0, 0.0]\nweights = softmax(scores) = [0.7311, 0.2689]\n```\n\n"
        "```python\nembeddings = np.random.randn(3, 4)\nQ = embeddings\nK = embeddings\nV = embeddings\n"
        "output, weights = attention(Q, K, V)\nprint(\"Weights shape:\", weights.shape)    # (3, 3)\n```\n\n"
        "Back to the one query: output = 0.7311·v1 + 0.2689·v2 = [1.5378, 2.5378].\n"),
    "z-is-the-scores": (
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad W^Q = W^K = W^V = I$$\n\n"
        "$$Z = QK^T = \\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\\\ 1 & 1 & 2 \\end{bmatrix}$$\n\n"
        "$$A = \\begin{bmatrix} 0.4011 & 0.1978 & 0.4011 \\\\ 0.1978 & 0.4011 & 0.4011 \\\\ "
        "0.2483 & 0.2483 & 0.5035 \\end{bmatrix}$$\n"),
}


@pytest.mark.parametrize("name", sorted(_HOLD))
def test_outside_readings_hold_no_error(name):
    r = check_document(_HOLD[name], fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_weighted_sum_whose_lines_end_in_plus_and_a_comment_is_one_statement():
    """`output = 0.5 * [...] +   # "a"` over `0.5 * [...]   # "b"` and `= [...]`: one sum (readers/continued.py);
    only its last term was paired with the result before."""
    text = ('```python\noutput = 0.5 * [1.0, 0.0, 2.0] +   # "a"\n         0.5 * [0.0, 1.0, 2.0]     # "b"\n\n'
            '       = [0.5, 0.5, {v}]\n```\n')
    assert not check_document(text.format(v="2.0"), fmt="md").errors
    r = check_document(text.format(v="2.5"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "2.5")], [f.describe() for f in r.findings]


def test_a_square_root_of_a_rounded_variance_is_read_from_the_unrounded_one():
    """`σ² ≈ 0.667`, then `√(0.667 + 10⁻⁶) ≈ 0.8165`: worked from 2/3, not from 0.667 (an outside page's false
    finding); a root of a rounded argument of 1/4 or more moves less than the argument, so a slip still shows."""
    text = "The variance is $\\sigma^2 = 2/3 \\approx 0.667$ and $\\sqrt{{0.667 + 10^{{-6}}}} \\approx {v}$.\n\nAnd $2 + 2 = 4$.\n"
    assert not check_document(text.format(v="0.8165"), fmt="md").errors
    assert [f.printed for f in check_document(text.format(v="0.8185"), fmt="md").errors] == ["0.8185"]


def test_written_exponentials_rounded_to_units_or_rounded_twice():
    """`e^5 = 148` (a value that cannot be whole, printed as one) and `e^{0.12} = 1.128` (1.12750 rounded again) are
    roundings, not slips; `e^5 = 184` and `e^{0.12} = 1.129` are slips."""
    for text, errors in (("$e^{5} = 148$ and $e^{0.12} = 1.128$ and $2 + 2 = 4$.", 0),
                         ("$e^{5} = 184$ and $e^{0.12} = 1.128$ and $2 + 2 = 4$.", 1),
                         ("$e^{5} = 148$ and $e^{0.12} = 1.129$ and $2 + 2 = 4$.", 1)):
        assert len(check_document(text + "\n", fmt="md").errors) == errors, text


def test_a_matrix_refresher_names_shapes_of_its_own():
    """"multiply matrix A (2×3) by matrix B (3×2)" in a linear-algebra refresher beside an attention example is no
    claim about the attention weights A."""
    text = ("To multiply matrix $\\mathbf{A}$ (2×3) by matrix $\\mathbf{B}$ (3×2) the inner sizes must agree.\n\n"
            "```\nQ = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]\nK = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]\n"
            "V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]\nA = [[0.4011, 0.1978, 0.4011],\n     [0.1978, 0.4011, 0.4011],\n"
            "     [0.2483, 0.2483, 0.5035]]\n```\n")
    assert not check_document(text, fmt="md").errors


def test_chinese_de_zhi_is_the_values_of_something_not_v():
    """输入序列的值 is "the values of the input sequence" (X), not the attention values V; 值向量 is V."""
    from mha.check.labels import parse_label
    assert parse_label("输入序列的值").nodes == ("X",)
    assert parse_label("值向量").nodes == ("V",) and parse_label("值").nodes == ("V",)


def test_a_row_sum_line_names_its_row_and_ratios_and_shape_lists_are_no_claims():
    """Three readings from outside pages: "Softmax row 3. ...; sum = 9.2265" sums row 3 (the line says so, whatever
    row came before); "re-normalised from 0.5035 : 0.2483" is a ratio, not a label and its value; and
    "Softmax([1, 3, 3]): [1, 3, 3]" walks shapes, not weights."""
    text = ("$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad W^Q = W^K = W^V = I$$\n\n"
            "Row 2: $e^{0} = 1$, $e^{0.7071} = 2.0281$, $e^{0.7071} = 2.0281$; sum $= 5.0562$.\n"
            "Row 3: $e^{0.7071} = 2.0281$, $e^{0.7071} = 2.0281$, $e^{1.4142} = 4.1133$; sum $= {s}$.\n\n"
            "Masking the last key re-normalises row 3 from $0.2483 : 0.2483$ to $0.5000 : 0.5000$.\n\n"
            "```\nSoftmax([1, 3, 3]): [1, 3, 3]\n```\n\n"
            "$$A = \\begin{bmatrix} 0.4011 & 0.1978 & 0.4011 \\\\ 0.1978 & 0.4011 & 0.4011 \\\\ "
            "0.2483 & 0.2483 & 0.5035 \\end{bmatrix}$$\n")
    r = check_document(text.replace("{s}", "8.1695"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(text.replace("{s}", "8.1965"), fmt="md")
    assert [f.line for f in r.errors] == [4], [f.describe() for f in r.errors]


def test_rounded_factors_and_zero_addends_and_one_query_shapes():
    """From a page worked with pencil: 0.141 + 0 + 0 + (-0.283) = -0.141 adds rounded products of √2 (a zero
    addend is exact), 0*0 + 1.414*1.414 = 2.000 multiplies roundings of √2, and with one query worked by hand
    "Q.K^T is the full square of scores (here 2x2)" speaks of every word: none is a slip; real slips still are."""
    text = ("q = [1.0, 0.0]\nk1 = [1.0, 0.0]\nk2 = [0.0, 1.0]\nscores = [1.0, 0.0]\n"
            "weights = softmax(scores) = [0.7311, 0.2689]\n\n"
            "row3 = 0.141+0+0+(-0.283)={a}\nscore = 0*0 + 1.414*1.414 + (-1.414)*0 = {b}\n"
            "Q.K^T is the full square of scores (here 2x2) when both words are stacked.\n")
    assert not check_document(text.format(a="-0.141", b="2.000"), fmt="txt").errors
    assert len(check_document(text.format(a="-0.153", b="2.100"), fmt="txt").errors) == 2
