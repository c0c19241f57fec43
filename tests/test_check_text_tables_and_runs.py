"""Tables drawn with spaces, weights printed one row at a time, and token vectors of two exercises (outside trials
t197a, t197c, t197f).

* t197c (and the field set's fieldF-08): a code block with one row per encoder state, `[0, 1, 1]   15`, under a
  header of words and a rule of dashes.  The numbers between the bracketed vectors were glued into a label, and a
  slipped score went unreported.  The columns are read as a table now (readers/vectortable.py).
* t197f: a model's printout, one row of weights under each "Attention of output step k:" line.  No row was judged,
  and one that summed to 1.06 passed.  Rows printed so, of one width, are a matrix printed row by row
  (claims/rowsum.py `_stacked_rows`).
* t197a: two exercises under their own headings, each with `q_1`, `v_1`, `v_2` written out.  The vectors were
  gathered across both into one Q and one V, and the exercises' own matrices were judged against that mix (four
  false findings).  Token vectors are gathered from one run now (infer/starts.py `token_rows`).
"""

from check_helpers import error_places

ALIGNED = """# One decoder step, by hand

The decoder state scores each encoder state with a dot product.

```
decoder_state = [4, 2, 6]
encoder_state  score
--------------------
   [1, 0, 1]     10
   [0, 2, 1]     10
   [1, 1, 0]      6
   [2, 0, 0]      8
```

The softmax of the scores:

```
encoder_state  score  weight
----------------------------
   [1, 0, 1]     10   0.4643
   [0, 2, 1]     10   0.4643
   [1, 1, 0]      6   0.0085
   [2, 0, 0]      8   0.0628
```
"""


def test_a_table_aligned_by_spaces_holds():
    assert error_places(ALIGNED) == []


def test_a_slipped_score_in_it_is_found():
    assert error_places(ALIGNED.replace("   [2, 0, 0]      8\n```", "   [2, 0, 0]      9\n```")) == [(12, "9")]


def test_a_slipped_weight_in_it_is_found():
    assert error_places(ALIGNED.replace("0.0628", "0.0682")) == [(23, "0.0682")]


STACKED = """# What the trained model attends to

```
Attention of output step 0:
[0.912, 0.051, 0.025, 0.012]
Attention of output step 1:
[0.104, 0.733, 0.121, 0.042]
Attention of output step 2:
[0.018, 0.066, 0.862, 0.054]
Attention of output step 3:
[0.241, 0.007, 0.330, 0.422]
```
"""


def test_rows_of_weights_printed_one_by_one_hold():
    assert error_places(STACKED) == []


def test_a_row_that_does_not_sum_to_one_is_found():
    assert error_places(STACKED.replace("0.733", "0.773")) == [(7, "0.104 + 0.773 + 0.121 + 0.042 = 1.040")]


def test_rows_whose_captions_do_not_speak_of_attention_are_not_judged():
    page = STACKED.replace("Attention of output step", "Mixture at hour").replace("0.733", "0.773")
    assert error_places(page) == []


def _m(a, b, c, d):
    return r"\begin{pmatrix} %s & %s \\ %s & %s \end{pmatrix}" % (a, b, c, d)


# (each drill's vectors on one line of display math, as the trial's page wrote them)
TWO_DRILLS = (
    "# Two drills\n\n### Drill 1\n"
    f"$$Q = {_m(1, 0, 0, 1)}, \\quad K = {_m(1, 0, 1, 0)}, \\quad V = {_m(1, 0, 0, 1)}$$\n"
    r"$$\text{First query: } q_1 = [1, 0] \quad \vert \quad \text{Keys: } k_1 = [1, 0], \, k_2 = [1, 0] \quad \vert"
    r" \quad \text{Values: } v_1 = [1, 0], \, v_2 = [0, 1]$$" "\n\n"
    "Weights of the first query: $[0.5, 0.5]$.\n\n### Drill 2\n"
    f"$$Q = {_m(1, 2, 0, 1)}, \\quad K = {_m(1, 0, 1, 1)}, \\quad V = {_m(2, 0, 0, 2)}$$\n"
    r"$$q_1 = [1, 2], \, q_2 = [0, 1] \quad \vert \quad k_1 = [1, 0], \, k_2 = [1, 1] \quad \vert \quad v_1 = [2, 0],"
    r" \, v_2 = [0, 2]$$" "\n\n"
    "Weights of the first query: $[0.1956, 0.8044]$.\n")


def test_two_drills_with_token_vectors_of_their_own_hold():
    assert error_places(TWO_DRILLS) == []


def test_the_second_drills_slipped_weight_is_still_found():
    assert error_places(TWO_DRILLS.replace("0.8044", "0.8404")) == [(13, "0.8404")]


HEADER_VECTORS = """# Every query against every key

| query \\\\ key | k_a = (2, 1, 0) | k_b = (0.5, 3, 1) | k_c = (1, 1, 4) |
| - | - | - | - |
| q_x = (1, 0, 0) | 2 | 0.5 | 1 |
| q_y = (0, 1, 0.5) | 1 | 3.5 | 3 |
| q_z = (0.2, 0, 1) | 0.4 | 1.1 | 4.2 |
"""


def test_a_table_whose_headers_write_the_vectors_holds():
    # (fieldG-03 of the field sets writes its keys and queries so; its slipped products went unreported)
    assert error_places(HEADER_VECTORS) == []


def test_a_slipped_product_in_it_is_found():
    assert error_places(HEADER_VECTORS.replace("| 1.1 |", "| 1.4 |")) == [(7, "1.4")]


def test_a_table_of_other_values_under_such_headers_is_not_judged_as_products():
    scaled = HEADER_VECTORS.replace("| 2 | 0.5 | 1 |", "| 1.15 | 0.29 | 0.58 |").replace(
        "| 1 | 3.5 | 3 |", "| 0.58 | 2.02 | 1.73 |").replace("| 0.4 | 1.1 | 4.2 |", "| 0.23 | 0.64 | 2.42 |")
    assert error_places(scaled) == []


FILLED = """# A padded key, masked with a large negative number

Scores once the padded key is filled in:

```
tensor([[ 4.2000e-01, -3.1000e-01, -1.0000e+09],
        [ 1.2000e-01,  8.8000e-01, -1.0000e+09],
        [-6.0000e-01,  2.0000e-01, -1.0000e+09]])
```

Their softmax, row by row:

```
tensor([[0.6748, 0.3252, 0.0000],
        [0.3186, 0.6814, 0.0000],
        [0.3100, 0.6900, 0.0000]])
```
"""


def test_scores_masked_with_a_finite_fill_and_their_weights_hold():
    assert error_places(FILLED) == []


def test_a_weight_off_their_softmax_is_found_though_its_row_sums_to_one():
    # (t198b: -1e9 was no mask, the scores were taken for X, and the pair was never judged)
    assert error_places(FILLED.replace("[0.6748, 0.3252", "[0.6848, 0.3152")) == [(14, "0.6848"), (14, "0.3152")]


CHAINED = (
    "# Three tokens, two features\n\n"
    r"$$Q = \begin{pmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{pmatrix}, \quad "
    r"K = \begin{pmatrix} 0 & 1 \\ 1 & 1 \\ 1 & 0 \end{pmatrix}$$" "\n\n"
    r"$$\frac{QK^\top}{\sqrt{2}} = \frac{1}{\sqrt{2}}\begin{pmatrix} 0 & 1 & 1 \\ 1 & 1 & 0 \\ 1 & 2 & 1 \end{pmatrix} "
    r"= \begin{pmatrix} 0 & 0.707 & 0.707 \\ 0.707 & 0.707 & 0 \\ 0.707 & 1.414 & 0.707 \end{pmatrix}$$" "\n\n"
    "After softmax (row-wise):\n\n"
    r"$$A = \begin{pmatrix} 0.198 & 0.401 & 0.401 \\ 0.401 & 0.401 & 0.198 \\ 0.248 & 0.503 & 0.248 \end{pmatrix}$$"
    "\n")


def test_weights_after_a_chain_that_ends_in_the_scores_hold():
    assert error_places(CHAINED) == []


def test_weights_made_up_after_such_a_chain_are_judged_as_its_softmax():
    # (t201b: every weight of A off; the scores, the last matrix of an equation chain, were not paired with it,
    # and A, matching nothing, was set aside)
    made_up = CHAINED.replace("0.198 & 0.401 & 0.401 \\\\ 0.401 & 0.401 & 0.198 \\\\ 0.248 & 0.503 & 0.248",
                              "0.185 & 0.377 & 0.377 \\\\ 0.422 & 0.422 & 0.208 \\\\ 0.250 & 0.506 & 0.250")
    assert len(error_places(made_up)) == 9


def test_rows_under_head_numbers_are_judged_the_same_way():
    # (t202f: a model's README printing each head's row under "Head #k")
    heads = STACKED.replace("Attention of output step", "Head #")
    assert error_places(heads) == []
    assert error_places(heads.replace("0.733", "0.773")) == [(7, "0.104 + 0.773 + 0.121 + 0.042 = 1.040")]
