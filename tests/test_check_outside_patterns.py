"""Patterns of outside pages that drew false findings, each in a document of our own: a table whose "Value vector"
column stands beside the attention weights (its rows are no weights, whatever the sentence above the table says);
a sum of rounded exponentials printed as the exact row sum (1.11 + 1.00 + 1.86 + 1.57 = 5.53, the exponentials' sum
being 5.535); a product whose left operand ended the sentence before (`= 7,077,888. ×12 = 84,934,656`); an HTML
table whose caption names it with a note after a dash (`Q (queries) — shape (2, 3)`)."""

from mha.check import check_document

TABLES = """# Which word does "bank" look at?

| Word | Score | e^Score |
| --- | --- | --- |
| money | 0.10 | 1.11 |
| the | 0.00 | 1.00 |
| river | 0.62 | 1.86 |
| bank | 0.45 | 1.57 |

**Sum:** `1.11 + 1.00 + 1.86 + 1.57 = 5.53`

Each value vector is scaled by its attention weight, and the scaled vectors are summed:

| Word | Attention wt | Value vector | Weighted vector |
| --- | --- | --- | --- |
| money | 0.200 | [0.5, 0.5, 0.0] | [0.100, 0.100, 0.000] |
| the | 0.181 | [0.4, 0.6, 0.0] | [0.072, 0.108, 0.000] |
| river | 0.336 | [0.9, 0.3, 0.0] | [0.302, 0.101, 0.000] |
| bank | 0.283 | [0.2, 0.1, 0.0] | [0.057, 0.028, 0.000] |
"""


def test_a_value_vector_column_beside_the_weights_is_not_a_row_of_weights():
    r = check_document(TABLES, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "starts from raw scores" in r.configuration["mode"] and r.n_numbers >= 9


def test_a_slip_in_those_tables_is_still_found():
    bad = check_document(TABLES.replace("| river | 0.336 |", "| river | 0.363 |"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(18, "0.363")], [f.describe() for f in bad.errors]
    bad = check_document(TABLES.replace("= 5.53`", "= 5.63`"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(10, "5.63")], [f.describe() for f in bad.errors]


def test_rounded_addends_that_do_not_add_up_as_written_still_draw_a_finding_without_an_exact_sum_to_match():
    """With no configuration, nothing says the total is the exact row sum: the addends as written decide."""
    r = check_document("Sum: 1.11 + 1.00 + 1.86 + 1.57 = 5.53\n", fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(1, "5.53")]


def test_a_product_whose_left_operand_closed_the_sentence_before_is_no_claim():
    text = ("Per block: \\(4d^2 + 2dd_{ff} = 4(768^2) + 2(768)(3072) = 7{,}077{,}888\\). ×12 = 84,934,656. "
            "Embeddings: \\(50257\\times768 = 38{,}597{,}376\\).\n")
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


HTML = """<html><body>
<h2>Inputs</h2>
<table><caption>Q (queries) — shape (2, 2)</caption>
<tr><td>1.0</td><td>0.0</td></tr>
<tr><td>0.0</td><td>1.0</td></tr></table>
<table><caption>K (keys) — shape (2, 2)</caption>
<tr><td>1.0</td><td>1.0</td></tr>
<tr><td>0.0</td><td>1.0</td></tr></table>
<table><caption>V (values) — shape (2, 2)</caption>
<tr><td>1.0</td><td>0.0</td></tr>
<tr><td>0.0</td><td>1.0</td></tr></table>
<table><caption>Scaled scores — QK^T / sqrt(2)</caption>
<tr><td>0.707107</td><td>0.000000</td></tr>
<tr><td>0.707107</td><td>0.707107</td></tr></table>
<table><caption>Weights — softmax by row</caption>
<tr><td>0.669762</td><td>0.330238</td></tr>
<tr><td>0.500000</td><td>0.500000</td></tr></table>
</body></html>
"""


def test_html_captions_with_a_note_after_a_dash_name_their_tables():
    r = check_document(HTML, fmt="html")
    assert not r.errors and "Q, K, V given" in r.configuration["mode"], [f.describe() for f in r.errors]
    bad = check_document(HTML.replace("<td>0.707107</td><td>0.000000</td>", "<td>0.707187</td><td>0.000000</td>"),
                         fmt="html")
    assert [f.printed for f in bad.errors] == ["0.707187"], [f.describe() for f in bad.errors]


TWO_ON_A_LINE = """# One query against four keys

```py
temp_k = tf.constant([[10, 0, 0], [0, 10, 0], [0, 0, 10], [0, 0, 10]], dtype=tf.float32)
temp_v = tf.constant([[1, 0], [10, 0], [100, 5], [1000, 6]], dtype=tf.float32)
temp_q = tf.constant([[0, 10, 0]], dtype=tf.float32)
print("Output: {}, Attention: {}".format(*scaled_dot_product_attention(temp_q, temp_k, temp_v, None)))
# Output: [[10.  0.]], Attention: [[0. 1. 0. 0.]]
```
"""


def test_two_printouts_named_on_one_comment_line_are_read_apart():
    """`Output: [..], Attention: [..]`: the output's numbers are no part of the weights' name, so the weights are
    judged as the weights (they hold: one key takes all the attention) and a slip in the output is found."""
    r = check_document(TWO_ON_A_LINE, fmt="md")
    assert not r.errors and r.n_numbers >= 6, [f.describe() for f in r.errors]
    bad = check_document(TWO_ON_A_LINE.replace("[[10.  0.]]", "[[11.  0.]]"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(8, "11.")], [f.describe() for f in bad.errors]


PUNCTUATION_ROW = """# A causal row per token

```
Scores (Q @ K^T), given:
          we    ran   home   .
we    [  0.5   0.1   0.9   0.3  ]
ran   [  0.7   0.2   0.4   0.6  ]
home  [  0.1   0.8   0.3   0.5  ]
.     [  0.4   0.4   0.9   0.2  ]

After the causal mask and the softmax:
          we    ran   home   .
we    [  1.00  0.00  0.00  0.00  ]
ran   [  0.62  0.38  0.00  0.00  ]
home  [  0.24  0.48  0.29  0.00  ]
.     [  0.22  0.22  0.37  0.18  ]
```
"""


def test_a_row_named_by_a_punctuation_token_stays_in_its_matrix():
    """The sentence's "." names the last row: the four rows are one matrix (they were read as three rows and a
    stray vector, so nothing after the scores was checked)."""
    r = check_document(PUNCTUATION_ROW, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(PUNCTUATION_ROW.replace("0.22  0.37  0.18", "0.22  0.39  0.18"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(16, "0.39")], [f.describe() for f in bad.errors]


def test_weights_after_a_causal_mask_are_the_softmax_of_what_the_mask_leaves():
    """Scores printed in full, then the weights with zeros above the diagonal: each weight row is the softmax of
    its unmasked scores (it was judged as the softmax of the whole row, twelve false findings)."""
    text = PUNCTUATION_ROW.replace("   .\n", "   end\n").replace("\n.     [", "\nend   [")
    assert "end   [  0.22" in text
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(text.replace("0.62  0.38  0.00", "0.62  0.36  0.00"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(14, "0.36")], [f.describe() for f in bad.errors]


WORKED_CELLS = """# The weights, one cell each

| Word | e^score | Weight |
| --- | --- | --- |
| money | 1.11 | 1.11 / 5.53 = **0.201** |
| the | 1.00 | 1.00 / 5.53 = **0.181** |
| river | 1.86 | 1.86 / 5.53 = **0.336** |
| bank | 1.57 | 1.57 / 5.53 = **0.284** |
"""


def test_a_table_cell_that_works_its_value_out_is_judged_as_arithmetic():
    assert not check_document(WORKED_CELLS, fmt="md").errors
    bad = check_document(WORKED_CELLS.replace("**0.336**", "**0.363**"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(7, "0.363")], [f.describe() for f in bad.errors]


def test_a_caption_that_defines_its_matrix_by_a_formula_names_it():
    """`Attention scores = Q @ K^T:` over a table of named rows: the name before the formula labels the table, so
    the page starts from those scores (it was read as an unlabelled matrix, and an embedding table above it was
    taken for X with identity weights assumed)."""
    text = PUNCTUATION_ROW.replace("# A causal row per token\n", "# A causal row per token\n\nEmbeddings:\n\n"
                                   "```\nwe    [ 0.1  0.2  0.3 ]\nran   [ 0.4  0.5  0.6 ]\nhome  [ 0.7  0.8  0.9 ]\n"
                                   ".     [ 0.2  0.1  0.0 ]\n```\n")
    text = text.replace("Scores (Q @ K^T), given:", "Attention scores = Q @ K^T:")
    r = check_document(text, fmt="md")
    assert not r.errors and "starts from raw scores" in r.configuration["mode"], \
        (r.configuration["mode"], [f.describe() for f in r.errors])


PRE_LN = """# One head after a LayerNorm

The input, one token per row:

$$X = \\begin{bmatrix} 0 & 1 & 1 & 0 \\\\ 1 & 1 & 0 & 0 \\end{bmatrix}$$

and $W_Q = W_K = W_V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 0 & 0 \\\\ 0 & 0 \\end{bmatrix}$.

Normalise each row first. Take the first, $x_1 = [0, 1, 1, 0]$: its mean is 0.5 and its spread 0.5, so it becomes
$[-1, 1, 1, -1]$. The second row likewise:

$$\\tilde X = \\begin{bmatrix} -1 & 1 & 1 & -1 \\\\ 1 & 1 & -1 & -1 \\end{bmatrix}$$

Then $Q = K = V = \\tilde X W_Q = \\begin{bmatrix} -1 & 1 \\\\ 1 & 1 \\end{bmatrix}$, and

$$\\frac{QK^T}{\\sqrt{2}} = \\begin{bmatrix} 1.4142 & 0 \\\\ 0 & 1.4142 \\end{bmatrix}, \\quad
A = \\begin{bmatrix} 0.8044 & 0.1956 \\\\ 0.1956 & 0.8044 \\end{bmatrix}, \\quad
O = AV = \\begin{bmatrix} -0.6089 & 1 \\\\ 0.6089 & 1 \\end{bmatrix}$$
"""


def test_a_raw_input_row_quoted_before_the_layernorm_is_not_judged_as_the_normalised_row():
    """The chain starts from X̃; `x_1 = [0, 1, 1, 0]` is row 1 of the X printed above it, restated, not a row of
    X̃ with two slips (its two 1s agree with X̃'s row, which identified it)."""
    r = check_document(PRE_LN, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(PRE_LN.replace("0.1956 & 0.8044 \\end", "0.1965 & 0.8044 \\end"), fmt="md")
    assert [f.printed for f in bad.errors] == ["0.1965"], [f.describe() for f in bad.errors]


def test_an_integer_division_written_approximately_is_the_whole_part():
    """`d_k = 512/12 ≈ 42`: a head's width as integer division gives it, not a slip of 43; 41 still is."""
    text = "With $d_{model} = 512$ and $h = 12$ heads, $d_k = 512/12 \\approx 42$.\n"
    assert not check_document(text, fmt="md").errors
    assert [f.printed for f in check_document(text.replace("42$", "41$"), fmt="md").errors] == ["41"]


def test_a_zero_in_a_single_row_of_weights_is_no_mask():
    """Only zeros in the staircase a causal mask leaves mask the scores: `softmax([3, 5, 5]) ≈ [0.0, 0.5, 0.5]`
    rounds 0.063 down to nothing, which is still a finding."""
    text = "```\nscores  = [3, 5, 5]\nweights = softmax(scores) = [0.0, 0.5, 0.5]\n```\n"
    r = check_document(text, fmt="md")
    assert [f.printed for f in r.errors] == ["0.0"], [f.describe() for f in r.errors]
