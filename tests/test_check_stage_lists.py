"""Stages written the short way, as outside pages write them: a prose example whose every stage is a bare list
between commas (`Dot products: $1, 2, 0$`, exponentials as `e^{a}, e^{b} = x, y`); a softmax said in words
(`Softmax of [..] ≈ [..]`); a printout that lists the weights one per indented line with a bar drawn after each;
a notebook that prints `sqrt(d_k)` beside d_k; a weighted sum whose terms carry a quoted word in parentheses."""

import nbformat
import pytest

from mha.check import check_document

STAGES = """# One query, by hand

Take $d_k = 2$, the query $q = (0, 1)$ and the keys $k_1 = (1, 1)$, $k_2 = (0, 2)$, $k_3 = (1, 0)$.

Dot products: $1, 2, 0$; divided by $\\sqrt 2$: $0.71, 1.41, 0$.

Exponentials: $e^{0.71}, e^{1.41}, e^{0} = 2.03, 4.10, 1$, summing to $7.13$.

So the weights are $0.28, 0.58, 0.14$.
"""


def test_a_prose_example_of_comma_lists_is_read_from_its_query_and_keys():
    r = check_document(STAGES, fmt="md")
    assert not r.errors and not r.not_checked, [f.describe() for f in r.errors + r.not_checked]
    assert "K as k_i vectors" in r.configuration["mode"] and r.n_numbers >= 12


@pytest.mark.parametrize("find, replace, line", [
    ("$0.71, 1.41, 0$", "$0.71, 1.14, 0$", 5),        # the scaled list, named by "divided by √2"
    ("2.03, 4.10, 1$", "2.03, 4.01, 1$", 7),          # an exponential of the paired list
    ("$0.28, 0.58, 0.14$", "$0.28, 0.56, 0.14$", 9),   # the weights
])
def test_a_slip_in_a_stage_list_is_found_on_its_line(find, replace, line):
    r = check_document(STAGES.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def test_a_comma_list_under_words_that_name_nothing_is_not_a_vector():
    text = STAGES.replace("So the weights are", "The token ids are")
    r = check_document(text, fmt="md")
    assert not r.errors
    assert r.n_numbers < check_document(STAGES, fmt="md").n_numbers


SAID = """Scores for the first query: [3.0, 1.5, 0.5]
Softmax of [3.0, 1.5, 0.5] ≈ [0.766, 0.171, 0.063]
So the first token keeps
76.6% of its attention on itself
17.1% on token 2
"""


def test_softmax_said_in_words_is_judged_against_its_own_argument():
    assert not check_document(SAID, fmt="txt").errors
    # a wrong row that still sums to 1: found on its own line, not on the right percentages under it
    r = check_document(SAID.replace("0.766, 0.171", "0.756, 0.181"), fmt="txt")
    assert sorted({f.line for f in r.errors}) == [2], [f.describe() for f in r.errors]


def _notebook(weights: str, root: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import numpy as np\nquery = np.array([1.0, 0.0, 1.0])\n"
                                  "keys = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1], [2, 0, 0]], float)\n"
                                  "print('query:', query)\nprint('keys:', keys)",
                                  outputs=[nbformat.v4.new_output("stream", text=(
                                      "query: [1. 0. 1.]\nkeys: [[1. 1. 0.]\n [0. 1. 1.]\n [1. 0. 1.]\n"
                                      " [2. 0. 0.]]\n"))]),
        nbformat.v4.new_code_cell("d_k = keys.shape[1]\nprint(f'd_k = {d_k},  sqrt(d_k) = {np.sqrt(d_k):.3f}')",
                                  outputs=[nbformat.v4.new_output("stream", text=root)]),
        nbformat.v4.new_code_cell("w = softmax(keys @ query / np.sqrt(d_k))\nprint('Attention weights:')\n"
                                  "for i, x in enumerate(w):\n    print(f'  Item {i}: {x:.4f}  ' + '█' * int(x * 40))",
                                  outputs=[nbformat.v4.new_output("stream", text=weights)]),
    ]
    return nbformat.writes(nb)


WEIGHTS = ("Attention weights:\n  Item 0: 0.1798  ███████\n  Item 1: 0.1798  ███████\n"
           "  Item 2: 0.3202  ████████████\n  Item 3: 0.3202  ████████████\n")
ROOT = "d_k = 3,  sqrt(d_k) = 1.732\n"


def test_a_printout_of_weights_one_per_indented_line_with_bars_is_read():
    r = check_document(_notebook(WEIGHTS, ROOT), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(_notebook(WEIGHTS.replace("Item 2: 0.3202", "Item 2: 0.3220"), ROOT), fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in bad.errors] == [(3, 4, "0.3220")], \
        [f.describe() for f in bad.errors]


def test_a_printed_square_root_beside_its_size_is_judged_in_a_notebook():
    r = check_document(_notebook(WEIGHTS, ROOT.replace("1.732", "1.738")), fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in r.errors] == [(2, 1, "1.738")], [f.describe() for f in r.errors]


QUOTED = """# The output for "cat"

```
Output for "cat" = weighted sum of values:
= 0.5 × [1.0, 0.4]   ("cat")
+ 0.3 × [0.2, 1.0]   ("sat")
+ 0.2 × [0.6, 0.6]   ("mat")
= [0.50, 0.20] + [0.06, 0.30] + [0.12, 0.12]
= [0.68, 0.62]
```
"""


def test_a_quoted_word_after_a_term_is_a_remark_so_a_wrong_term_is_found_on_its_line():
    assert not check_document(QUOTED, fmt="md").errors
    r = check_document(QUOTED.replace("[0.06, 0.30]", "[0.08, 0.30]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(8, "0.08")], [f.describe() for f in r.errors]


SOLUTIONS = """# Two short exercises

**Q1.** The query $q = [2, 0, 1]$ meets three keys, $k_1 = [1, 1, 0]$, $k_2 = [0, 1, 2]$ and $k_3 = [0, 0, 1]$.
Give the weights without any scaling.

**Q2.** The same query and keys, now dividing by $\\sqrt{d_k}$.

# Answers

**Q1.** Scores: $q \\cdot k_1 = 2$, $q \\cdot k_2 = 2$, $q \\cdot k_3 = 1$. Exponentials $7.389, 7.389, 2.718$, total 17.496. Weights $0.422, 0.422, 0.155$.

**Q2.** With $d_k = 3$ we divide by $\\sqrt 3 = 1.732$: scores $1.155, 1.155, 0.577$. Exponentials $3.173, 3.173, 1.781$, total 8.127. Weights $0.390, 0.390, 0.219$.
"""


def test_bare_lists_opened_by_their_name_are_read_and_each_exercise_keeps_its_scale():
    """Q1 asks for unscaled weights and Q2 for scaled ones, from the same query and keys: whichever scale the page's
    configuration takes, the other answer is no slip of "the scale left out" (each bold label opens its own
    section), and a slip in the answer the configuration reads is found on its line."""
    r = check_document(SOLUTIONS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    line = SOLUTIONS.split("\n").index(next(x for x in SOLUTIONS.split("\n") if x.startswith("**Q2.** With"))) + 1
    bad = check_document(SOLUTIONS.replace("$0.390, 0.390, 0.219$", "$0.390, 0.390, 0.229$"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(line, "0.229")], [f.describe() for f in bad.errors]
    bad = check_document(SOLUTIONS.replace("Exponentials $3.173, 3.173", "Exponentials $3.173, 3.137"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(line, "3.137")], [f.describe() for f in bad.errors]


CUT_SHORT = """# One score of a long dot product

```
score(cat, sat) = 0.5×0.2 + 0.3×0.9 + (-0.4)×0.5 + ...
                = 0.10 + 0.27 + (-0.20) + ...
                = 2.9 (after all 64 terms)
```
"""


def test_a_sum_cut_short_on_two_sides_is_judged_term_by_term_and_its_total_is_not():
    """`+ ...` on both sides: the terms shown are compared one by one; the total of all 64 terms is no sum of them."""
    r = check_document(CUT_SHORT, fmt="md")
    assert not r.errors and r.n_numbers >= 1, [f.describe() for f in r.errors]
    bad = check_document(CUT_SHORT.replace("0.10 + 0.27", "0.10 + 0.72"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(5, "0.72")], [f.describe() for f in bad.errors]


PAIRED = """# Scaling one row

```
Raw scores:    [0.84, -0.30, 1.26]
Scaled scores: [0.84/1.414, -0.30/1.414, 1.26/1.414] = [0.594, -0.212, 0.891]
```
"""


def test_a_list_of_divisions_equal_to_a_list_of_values_is_read_item_by_item():
    assert not check_document(PAIRED, fmt="md").errors
    bad = check_document(PAIRED.replace("-0.212, 0.891]", "-0.212, 0.819]"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(5, "0.819")], [f.describe() for f in bad.errors]


ARROWS = """# Why scale the scores

```
Unscaled: [7, 4] → softmax ≈ [0.95, 0.05]
Scaled:   [7, 4] → [7/2, 4/2] = [3.5, 2] → softmax ≈ [0.82, 0.18]
```
"""


def test_a_list_of_sums_inside_an_arrow_chain_keeps_the_chain_after_it():
    """The sums of `[7/2, 4/2] = [3.5, 2]` are read at the end of the line, so the softmax after the arrow is
    still the softmax of [3.5, 2] (a slip in it is found on its line)."""
    assert not check_document(ARROWS, fmt="md").errors
    bad = check_document(ARROWS.replace("[0.82, 0.18]", "[0.84, 0.18]"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(5, "0.84")], [f.describe() for f in bad.errors]


WORKED_ITEMS = """# Softmax of one row, by hand

```
Scores: [0.1, 0.2, 1.9]

  e^0.1 = 1.105
  e^0.2 = 1.221
  e^1.9 = 6.686
  Sum = 9.012

  Attention weights:
    red:   1.105/9.012 = 0.123
    blue:  1.221/9.012 = 0.135
    green: 6.686/9.012 = 0.742
```
"""


def test_indented_items_that_work_their_value_out_are_arithmetic_lines():
    """`  blue:  1.221/9.012 = 0.135` under "Attention weights:": each item is its own arithmetic (it holds, from the
    rounded exponentials), not an entry of a row judged against the exact weight (0.13552, which rounds to 0.136)."""
    r = check_document(WORKED_ITEMS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(WORKED_ITEMS.replace("= 0.742", "= 0.724"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(14, "0.724")], [f.describe() for f in bad.errors]


def test_the_sums_of_a_list_go_before_a_remark_that_ends_the_line():
    """`q₃ = W_Q^T · x₃ = [1+0, 0+0] = [1, 1]    (simplified)`: the item sums are read before the remark, so the wrong one
    (0+0 is not 1) is still found on its line."""
    text = ("```\nStep 1: the queries\n  q₁ = W_Q^T · x₁ = [1+1, 0+0] = [2, 0]\n  q₂ = W_Q^T · x₂ = [0+0, 1+1] = [0, 2]\n"
            "  q₃ = W_Q^T · x₃ = [1+0, 0+0] = [1, 1]    (simplified)\n```\n")
    r = check_document(text, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "1")], [f.describe() for f in r.errors]
