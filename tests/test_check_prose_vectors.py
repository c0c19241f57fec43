"""Per-token vectors as people write them in prose: a query against some tokens' keys only (a sliding window with a
global token: q_5 against k_1, k_4, k_5), a token's vector of whole numbers in parentheses (`$q = (1, 1)$`), and
a bare vector named by the words before its math ("the weights are approximately $(0.140, 0.284, 0.576)$",
"权重约为 $(…)$")."""

import pytest

from mha.check import check_document
from mha.check.readers.worded import named_by_words

SPARSE = """# A sliding window with a global token

With a window of two and one global token, position 5 attends only to positions 1, 4 and 5.

Its query is $q_5 = (1, 2)$, and the keys it sees are $k_1 = (1, 0)$, $k_4 = (0, 1)$ and $k_5 = (1, 1)$.

The dot products are $1$, $2$ and $3$; divided by $\\sqrt{2}$ they become $0.7071$, $1.4142$ and $2.1213$.

After the softmax, the weights are approximately $(0.140, 0.284, 0.576)$.

With the values $v_1 = (1, 1)$, $v_4 = (0, 2)$, $v_5 = (3, 0)$, the output is

$$o_5 = 0.140\\,(1, 1) + 0.284\\,(0, 2) + 0.576\\,(3, 0) = (1.868, 0.708)$$
"""

WORDED = """# One query

Let $q=(1,1)$, and the keys $k_1=(2,0)$, $k_2=(0,1)$, $k_3=(1,1)$. Without scaling, the scores are $2, 1, 2$.

The weights are approximately $(0.422, 0.155, 0.422)$. With $v_1=(1,0)$, $v_2=(0,2)$, $v_3=(2,1)$:

$$o = 0.422(1,0)+0.155(0,2)+0.422(2,1)=(1.266,0.732)$$

数值权重约为 $(0.422,0.155,0.422)$.

权重为 (0.422, 0.155, 0.422)。
"""


def test_a_query_against_some_tokens_keys_starts_from_those_vectors():
    r = check_document(SPARSE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "K as k_i vectors from line 5" in r.configuration["mode"]
    assert not r.not_checked, [n.describe() for n in r.not_checked]


@pytest.mark.parametrize("find, replace, line", [("0.284, 0.576)$", "0.248, 0.576)$", 9),
                                                 ("(1.868, 0.708)", "(1.868, 0.780)", 13)])
def test_a_slip_after_sparse_keys_is_found(find, replace, line):
    r = check_document(SPARSE.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_values_of_other_tokens_than_the_keys_are_not_paired_with_them():
    """k_1, k_4, k_5 with v_1, v_2, v_3: the values are not the keys' tokens, so no start pairs them."""
    text = SPARSE.replace("v_4 = (0, 2)", "v_2 = (0, 2)").replace("v_5 = (3, 0)", "v_3 = (3, 0)")
    r = check_document(text, fmt="md")
    assert not r.errors and "V as v_i vectors" not in r.configuration.get("mode", "")


def test_whole_number_token_vectors_and_worded_weights_are_read():
    r = check_document(WORDED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "Q at line 3" in r.configuration["mode"] and r.configuration["scale"] == "none (unscaled)"
    bad = check_document(WORDED.replace("approximately $(0.422, 0.155", "approximately $(0.422, 0.515"), fmt="md")
    assert [(f.line, f.printed) for f in bad.errors] == [(5, "0.515")]


@pytest.mark.parametrize("said, content, name", [
    ("The weights are approximately ", "(0.42, 0.16, 0.42)", "weights"),
    ("数值权重约为 ", "(0.422,0.155,0.422)", "权重"),
    ("the scores are ", "[2, 1, 0]", "scores"),
    ("the weights ", "(0.42, 0.16)", None),             # no copula: not said to be the vector
    ("The values are ", "(1, 0)", None),                 # V is a given, not a result named by words
    ("the weights are ", "(0.4, 0.6) + x", None),        # more than a bare vector
])
def test_the_words_before_a_bare_vector_name_it(said, content, name):
    assert named_by_words(said, content) == name


CAPITALS = """# One query, three keys

The query and the keys, each a row of three numbers:

$Q = (2, 0, 1)$

$K_1 = (1, 1, 0)$

$K_2 = (0, 2, 2)$

$K_3 = (-1, 0, 3)$

Dot products:

$Q \\cdot K_1 = 2$

$Q \\cdot K_2 = 2$

$Q \\cdot K_3 = 1$

As one row, $QK^T = \\begin{bmatrix} 2 & 2 & 1 \\end{bmatrix}$.

Scaled by $\\sqrt{3}$: $\\frac{2}{\\sqrt{3}} \\approx 1.155$, $\\frac{2}{\\sqrt{3}} \\approx 1.155$ and $\\frac{1}{\\sqrt{3}} \\approx 0.577$.
"""


def test_capital_token_vectors_in_parentheses_are_the_query_and_keys():
    """`$K_2 = (0, 2, 2)$`: a capital with an index (or three entries) and whole numbers is a token's vector, so
    the dot products written with its name are judged (a sign slip is found)."""
    r = check_document(CAPITALS, fmt="md")
    assert not r.errors and "Q at line 5" in r.configuration["mode"], [f.describe() for f in r.errors]
    bad = check_document(CAPITALS.replace("K_3 = 1$", "K_3 = -1$"), fmt="md")
    assert [f.line for f in bad.errors] == [19], [f.describe() for f in bad.errors]


COLUMNS = """One query against three keys, by pencil (no scaling)

    scores      2   4   1

      e^2 =    7.389  e^4 =   54.598  e^1 =    2.718

    share of the second key = 54.598 / 64.705 = 0.844
"""


def test_equalities_two_spaces_apart_in_plain_text_are_separate():
    """`e^2 =    7.389  e^4 =   54.598`: a number, two spaces, a short name and its relation start another
    equation, not a product "7.389 e^4" (which read e^4 as 7.389 and called 54.598 wrong)."""
    r = check_document(COLUMNS, fmt="txt")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(COLUMNS.replace("54.598  e^1", "45.598  e^1"), fmt="txt")
    assert [f.line for f in bad.errors] == [5], [f.describe() for f in bad.findings]



NESTED = """# Two rows of weights, by hand

The raw scores are $QK^T = \\begin{bmatrix} 2 & 1 \\\\ 0 & 1 \\end{bmatrix}$, with $d_k = 2$. By hand:
$$
\\begin{aligned}
\\text{weights}&=\\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)\\\\
&=\\text{softmax}(\\frac
{\\begin{bmatrix}
2 & 1\\\\ 
0 & 1
\\end{bmatrix}}
{\\sqrt{2}})\\\\
&=\\text{softmax}\\begin{pmatrix}
1.4142 & 0.7071\\\\ 
0 & 0.7071
\\end{pmatrix}\\\\
&=\\begin{bmatrix}
\\frac{\\text{exp}(1.4142)}{\\text{exp}(1.4142) + \\text{exp}(0.7071)} & \\frac{\\text{exp}(0.7071)}{\\text{exp}(1.4142) + \\text{exp}(0.7071)}\\\\ 
\\frac{\\text{exp}(0)}{\\text{exp}(0) + \\text{exp}(0.7071)} & \\frac{\\text{exp}(0.7071)}{\\text{exp}(0) + \\text{exp}(0.7071)}
\\end{bmatrix}\\\\
&=\\begin{bmatrix}
0.6698 & 0.3302\\\\
0.3302 & 0.6698
\\end{bmatrix}
\\end{aligned}
$$
"""


def test_a_display_block_ends_at_its_own_closer_not_at_an_inner_end():
    """`$$ \\begin{aligned} ... \\end{bmatrix} ... $$` read as raw text (no blank line before the $$): the inner
    \\end{bmatrix} does not end the display, so the lines after it are math, not prose.  Read as prose,
    `\\text{exp}(0.7071)` was "exp = 0.7071" (an outside page drew four false errors from it)."""
    from mha.check.readers import read_document
    doc = read_document(NESTED, "md")
    assert not [c for c in doc.chains if "text exp" in " ".join(getattr(p, "text", "") for p in c.parts)], \
        [c.text for c in doc.chains]
    r = check_document(NESTED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


SPACED = """# One query, two keys

The query $q = [1, 1]$ meets the keys $k_1 = [1, 1]$ and $k_2 = [1, 0]$; the scaled scores are 1.4142 and 0.7071.

$$
\\alpha \\;\\approx\\; (0.6698,\\; 0.3302).
$$
"""


def test_a_tuple_after_a_spaced_relation_and_before_a_full_stop_is_read():
    """`\\alpha \\;\\approx\\; (0.6698,\\; 0.3302).`: TeX spacing around the relation and the sentence's full
    stop do not hide the weights (unread, an output worked from them was judged against the exact weights)."""
    r = check_document(SPACED, fmt="md")
    assert not r.errors and r.n_numbers >= 2, [f.describe() for f in r.findings]
    bad = check_document(SPACED.replace("0.6698,", "0.6689,"), fmt="md")
    assert [f.line for f in bad.errors] == [6], [f.describe() for f in bad.findings]



def test_a_begin_left_open_is_no_traceback():
    """A damaged page that starts with `\\begin{` and no name (the fuzz test's mutation): the display block it opens
    ends at any \\end, and the page still gives a report."""
    from pathlib import Path
    page = Path(__file__).resolve().parent / "check_corpus" / "html_csdn_batch_two_heads_zh.html"
    r = check_document("\\begin{" + page.read_text(encoding="utf-8"), fmt="html")
    assert r.n_claims > 0
