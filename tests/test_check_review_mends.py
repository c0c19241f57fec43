"""What the review of this stop's changes found, each on a page of this project's own (before the mends: a false
finding, a crash, or a wait of a minute on one line):

* a quote judged among quotes that hold, though the page had moved on to changed scores between them;
* rows under "Head 1:", "Head 2:" taken for rows of weights (they were queries), and a caption that was the row
  before it;
* a header cell `K1 = (0.5, 1..5)` crashed the reading of a table whose headers write vectors;
* a header of many words parted by three spaces, over a rule of dashes, made the aligned-table reading backtrack
  for a minute;
* `$\\sqrt{2} \\approx 1{,}414$` on a page of decimal points: one TeX group after "≈" whose left side says it is a
  decimal comma, not a thousands one;
* `\\mathbb{R}^{3,512}`: a shape, not the number 3512.
"""

import time

from check_helpers import error_places

CHANGED = """# Softmax of the scores

The raw scores of the query against the three keys are s = [1.0, 2.0, 0.5].

The weights, one per key:

α_1 = 0.2312

α_2 = 0.6285

α_3 = 0.1402

Now raise the third score to 3.0, so the scores are [1.0, 2.0, 3.0]; the third key takes most of the weight:

α_3 = 0.6652
"""


def test_a_quote_after_the_page_changes_its_scores_is_not_judged_against_the_first():
    assert error_places(CHANGED) == []


QUERIES = """# Multi-head attention: the queries

Each head's query vector for token 1.

Head 1:
[0.50, 0.50, 0.00]

Head 2:
[0.40, 0.60, 0.00]

Head 3:
[0.30, 0.62, 0.00]
"""


def test_rows_under_head_captions_that_are_queries_are_no_weights():
    assert error_places(QUERIES) == []


def test_a_row_is_no_caption_of_the_next():
    page = """# Multi-head attention

The per-head query vectors for the first token under multi-head attention:
Head 1: [0.50, 0.50, 0.00]
Head 2: [0.40, 0.60, 0.00]
Head 3: [0.30, 0.62, 0.00]
"""
    assert error_places(page) == []


def test_a_mistyped_header_vector_does_not_crash_the_table():
    page = """# Scores table

| | K0 = (1.0, 2.0) | K1 = (0.5, 1..5) |
|---|---|---|
| Q0 = (1.0, 0.0) | 1.0 | 0.5 |
| Q1 = (0.0, 1.0) | 2.0 | 1.5 |
"""
    assert error_places(page) == []


def test_a_wide_header_over_a_rule_is_read_at_once():
    words = "   ".join(["token", "the", "cat", "sat", "on", "the", "mat", "and", "then", "slept", "by", "pos 9"])
    page = f"# Weights per token\n\n```\n{words}\n{'-' * len(words)}\nq = [1.0, 0.0]\n```\n"
    start = time.perf_counter()
    error_places(page)
    assert time.perf_counter() - start < 10       # (a minute and more before: a regex that backtracked)


def test_a_tex_decimal_comma_after_approx_on_a_page_of_points():
    page = "# Roots\n\nIn German notation: $\\sqrt{2} \\approx 1{,}414$, and the page goes on in points: 0.5.\n"
    assert error_places(page) == []
    assert error_places(page.replace("1{,}414", "1{,}424")) == [(3, "1.424")]


def test_a_shape_in_braces_is_no_grouped_number():
    from mha.check.readers import read_document
    from mha.check.readers.spacedpoints import thin_thousands
    text = thin_thousands("Each row lives in $\\mathbb{R}^{3,512}$, and $\\frac{1,000}{2,000} = 0.5$.\n")
    assert "{3,512}" in text and "1000" in text
    assert read_document(text, "md") is not None


def test_a_notebook_kept_under_a_text_name_is_read_as_a_notebook():
    # (t204a: Sphinx keeps a notebook's source as `_sources/.../x.ipynb.txt`; read as plain text, nothing was checked
    # and a slipped weight passed)
    from check_helpers import code_notebook
    from mha.check import check_document
    nb = code_notebook([
        ("import numpy as np\nS = np.array([[1.0, 0.0], [0.5, 2.0]])\nS", "array([[1. , 0. ],\n       [0.5, 2. ]])"),
        ("w = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)\nw",
         "array([[0.7311, 0.2689],\n       [0.1824, 0.8176]])"),
    ])
    assert check_document(nb, name="attention.ipynb.txt").format == "ipynb"
    slipped = check_document(nb.replace("0.1824", "0.1924"), name="attention.ipynb.txt")
    assert [(f.cell, f.printed) for f in slipped.errors] == [(2, "0.1924")]
