"""`mha check` on the kinds of mistakes authors make themselves (issue 18, own errors): weights that are not the
softmax of the scores drawn right above them (a row of scores, an arrow with the word softmax, the row of weights
with a remark in parentheses), and a softmax written out at one decimal whose small weight is printed 0.0 though it
rounds to 0.1; and a wrong score carried on into later arithmetic that is right for it (one finding where the
author slipped, a "follows from line N" note on each line that carries it).  Each document is written for this
test (own words, own numbers); the clean one checks clean, the wrong one gets its finding on its own line, and a
look-alike (another word over the arrow, a number that only looks carried) stays unjudged."""

import textwrap

from check_helpers import error_lines as _errors
from check_helpers import line_of as _line_of

from mha.check import check_document
from mha.check.readers import read_document


DRAWN = textwrap.dedent("""\
    # From scores to weights

    The raw scores of the second token against the three tokens of the sentence:

    ```
    raw scores, token 2:   [0.8, -0.4, 1.6]
                                 |
                              softmax
                                 |
                                 v
    weights, token 2:      [0.2835, 0.0854, 0.6310]   (close to 1 in total)
    ```

    The weights say the second token looks mostly at the third one.
    """)


def test_drawn_softmax_ties_the_weights_to_the_scores_above():
    doc = read_document(DRAWN, "md")
    scores, weights = doc.arrays[0], doc.arrays[1]
    assert [n.text for n in weights.numbers] == ["0.2835", "0.0854", "0.6310"]   # the remark is not the value
    assert weights.softmax_of is scores


def test_drawn_softmax_clean_then_wrong_weights_found_on_their_line():
    assert _errors(DRAWN) == {}
    wrong = DRAWN.replace("[0.2835, 0.0854, 0.6310]", "[0.2635, 0.0754, 0.5310]")   # all three off
    line = _line_of(wrong, "[0.2635")
    errs = _errors(wrong)
    assert list(errs) == [line] and len(errs[line]) == 3


def test_an_arrow_with_another_step_is_no_softmax_drawing():
    other = DRAWN.replace("softmax\n", "dropout\n")
    doc = read_document(other, "md")
    assert doc.arrays[1].softmax_of is None
    two_words = DRAWN.replace("softmax\n", "softmax, then softmax again\n")
    assert two_words != DRAWN
    assert read_document(two_words, "md").arrays[1].softmax_of is None


def test_a_parenthesised_number_after_a_row_is_not_taken_for_a_remark():
    text = "The weights are\n\n```\nw = [0.25, 0.75] (3)\n```\n"
    doc = read_document(text, "md")
    assert all([n.text for n in a.numbers] != ["0.25", "0.75"] for a in doc.arrays)


ONE_DECIMAL = textwrap.dedent("""\
    # Softmax at one decimal

    A small example of how rounding hides the smallest weight:

    ```
    softmax([0, 2, 1]) = [0.1, 0.7, 0.2]
    ```
    """)


def test_one_decimal_softmax_rounded_right_is_clean_and_zero_for_a_tenth_is_wrong():
    assert _errors(ONE_DECIMAL) == {}
    wrong = ONE_DECIMAL.replace("[0.1, 0.7, 0.2]", "[0.0, 0.7, 0.2]")
    line = _line_of(wrong, "[0.0, 0.7, 0.2]")
    assert list(_errors(wrong)) == [line]


DECLARED = textwrap.dedent("""\
    # Softmax, shown coarsely

    ```
    softmax([1, 3, 3]) = [0.0, 0.5, 0.5]
    ```

    The code below keeps the same coarse numbers on purpose:

    ```python
    weights = softmax(scores)
    # for readability, approximate the above as follows
    weights = [
        [0.0, 0.5, 0.5],
    ]
    ```
    """)


def test_one_decimal_softmax_declared_approximate_is_left_alone():
    assert _errors(DECLARED) == {}
    undeclared = DECLARED.replace("# for readability, approximate the above as follows", "# the weights")
    assert _line_of(undeclared, "softmax([1, 3, 3])") in _errors(undeclared)


CARRIED = textwrap.dedent("""\
    # One query, two keys

    ```
    query:  [0.5, 0.1, 0.4]
    key A:  [0.2, 0.9, 0.3]
    key B:  [0.6, 0.2, 0.1]
    ```

    ```
    score A = (0.5×0.2) + (0.1×0.9) + (0.4×0.3) = 0.31
    score B = (0.5×0.6) + (0.1×0.2) + (0.4×0.1) = 0.36
    ```

    Divide by √3 ≈ 1.732, then take the softmax of the two:

    ```
    scaled A = 0.31 / 1.732 = 0.179
    scaled B = 0.36 / 1.732 = 0.208
    weight A = exp(0.179) / (exp(0.179) + exp(0.208)) = 0.493
    weight B = exp(0.208) / (exp(0.179) + exp(0.208)) = 0.507
    ```

    With the values [1.0, 2.0] for A and [3.0, 0.0] for B:

    ```
    output = 0.493 × [1.0, 2.0] + 0.507 × [3.0, 0.0]
           = [0.493, 0.986] + [1.521, 0.000]
           = [2.014, 0.986]
    ```
    """)


def _notes(text: str) -> dict[int, str]:
    r = check_document(text, name="notes.md")
    return {f.line: f.cause for f in r.findings if f.severity == "note"}


def test_a_wrong_score_carried_into_later_arithmetic_gets_notes_not_findings():
    assert _errors(CARRIED) == {} and _notes(CARRIED) == {}
    wrong = CARRIED.replace("(0.4×0.3) = 0.31", "(0.4×0.3) = 0.34")           # the author's own slip
    wrong = wrong.replace("0.31 / 1.732 = 0.179", "0.34 / 1.732 = 0.196")     # carried on, arithmetic right
    for old, new in (("(exp(0.179) + exp(0.208)) = 0.493", "(exp(0.196) + exp(0.208)) = 0.497"),
                     ("(exp(0.179) + exp(0.208)) = 0.507", "(exp(0.196) + exp(0.208)) = 0.503"),
                     ("exp(0.179) / (", "exp(0.196) / ("),
                     ("0.493 × [1.0, 2.0] + 0.507", "0.497 × [1.0, 2.0] + 0.503"),
                     ("[0.493, 0.986] + [1.521, 0.000]", "[0.497, 0.994] + [1.509, 0.000]"),
                     ("[2.014, 0.986]", "[2.006, 0.994]")):
        wrong = wrong.replace(old, new)                                         # each step right for its terms
    origin = _line_of(wrong, "(0.4×0.3) = 0.34")
    assert list(_errors(wrong)) == [origin]                                     # one slip, one finding
    notes = _notes(wrong)
    for find in ("0.34 / 1.732", "exp(0.196) / ", "exp(0.208) / ", "0.497 ×", "[0.497, 0.994]", "[2.006, 0.994]"):
        assert notes[_line_of(wrong, find)].startswith(f"follows from line {origin}"), find
    assert _line_of(wrong, "0.36 / 1.732") not in notes                         # not carried: no note


def test_a_number_that_only_looks_carried_gets_no_note():
    wrong = CARRIED.replace("(0.4×0.3) = 0.31", "(0.4×0.3) = 0.34")
    # the next line still divides the right 0.31, and a far-away 0.34 is another quantity
    assert list(_notes(wrong)) == []


QUOTED = textwrap.dedent("""\
    # 三个词的输出

    q1 = [1, 1]，q2 = [0, 1]，q3 = [2, 0]；k1 = [1, 0]，k2 = [1, 1]，k3 = [0, 2]；
    v1 = [2, 0]，v2 = [0, 1]，v3 = [1, 1]；d_k = 2，分数除以 √2。

    ```text
    S' = [ 0.71   1.41   1.41 ]
         [ 0.00   0.71   1.41 ]
         [ 1.41   1.41   0.00 ]
    ```

    ```text
    行 1:  α = [0.16, 0.42, 0.42]
    行 2:  α = [0.14, 0.28, 0.58]
    行 3:  α = [0.45, 0.45, 0.11]
    ```

    ```text
    o1 = 0.16·[2,0] + 0.42·[0,1] + 0.42·[1,1]  =  [0.74, 0.84]
    o2 = 0.14·[2,0] + 0.28·[0,1] + 0.58·[1,1]  =  [0.86, 0.86]
    ```
    """)


def test_a_wrong_weight_quoted_in_the_weighted_sum_is_one_finding():
    """Row 1 of the weights is softmax([0.71, 1.41, 1.41]) = [0.20, 0.40, 0.40]; the author's [0.16, 0.42, 0.42]
    leaves the scale out.  That is one slip, found on its own line; its three weights quoted again in o1 get notes
    that point back to it, not three more findings."""
    r = check_document(QUOTED, fmt="md")
    row1 = _line_of(QUOTED, "行 1:")
    o1 = _line_of(QUOTED, "o1 =")
    assert sorted(_errors(QUOTED)) == [row1], [f.describe() for f in r.findings]
    quoted = [f for f in r.findings if f.line == o1 and f.claim.startswith("A^")]
    assert len(quoted) == 3 and all(f.severity == "note" and f"line {row1}" in f.cause for f in quoted), \
        [f.describe() for f in r.findings]
    assert not [f for f in r.findings if f.line == _line_of(QUOTED, "o2 =")], [f.describe() for f in r.findings]


OUTPUT_ONE = textwrap.dedent("""\
    # Two tokens

    ```python
    Q = [[0, 1], [1, 0]]
    K = [[0, 1], [1, 0]]
    V = [[2, 1], [0, 3]]
    ```

    The scores divided by √2 are S = [[0.7071, 0.0000], [0.0000, 0.7071]].

    exp(0.7071) ≈ 2.0281 and exp(0) = 1, so the sum is 3.0281.

    - weight of token 1 on itself: 2.0281 / 3.0281 ≈ 0.6697
    - weight of token 1 on token 2: 1 / 3.0281 ≈ 0.3303

    - output_1 = 0.6697 * [2, 1] + 0.3303 * [0, 3]
    """)


def test_output_one_is_token_one_and_its_quoted_weights_are_notes():
    """With one head, `output_1` is token 1's output (as v1, v2 are tokens'), not head 1's: its weights are judged
    against row 1, not against row 2 (which holds the same numbers reversed and tied with row 1 on the printed
    values).  0.3303 is the one slip (1 / 3.0281 is 0.3302); quoted in output_1, both weights get notes that point
    back to the lines that printed them, not findings against token 2's weights."""
    r = check_document(OUTPUT_ONE, fmt="md")
    line = _line_of(OUTPUT_ONE, "output_1 =")
    assert sorted(_errors(OUTPUT_ONE)) == [_line_of(OUTPUT_ONE, "token 2: 1 / 3.0281")], [f.describe() for f in r.findings]
    quoted = [f for f in r.findings if f.line == line]
    assert len(quoted) == 2 and all(f.severity == "note" and "follows from line" in f.cause for f in quoted), \
        [f.describe() for f in r.findings]
    assert all("[1," in f.claim for f in quoted), [f.describe() for f in quoted]
