"""Weights read out as percentages in the prose under them (issue 18, own-error recall; claims/percentquote.py).

Authors print a row of attention weights and then say it in words: "key 0: 66%, key 1: 24%, key 2: 10%".  When a
percentage is not the weight at its own precision, the reader is misled, so it is an error on its line.  Identity
comes from the row: as many percentages as nonzero weights, in order, and either most of them agreeing, or their sum
being 100 with one agreeing or each naming its position.  My own pages and numbers; the weights are recomputed
here with NumPy, independently of mha."""

import numpy as np
import pytest

from check_helpers import error_lines, line_of, md_document, softmax
from mha.check import check_document


W = softmax([2.0, 1.0, 0.1])                           # 0.6590, 0.2424, 0.0986
PCT = [f"{100 * w:.0f}%" for w in W]                    # 66%, 24%, 10%

VECTOR = f"""# One query against three keys

```python
scores = torch.tensor([2.0, 1.0, 0.1])
weights = torch.softmax(scores, dim=0)
print(weights)
# tensor([{W[0]:.4f}, {W[1]:.4f}, {W[2]:.4f}])
```

Read as shares of the attention:

- key 0: {PCT[0]}
- key 1: {PCT[1]}
- key 2: {PCT[2]}

So key 0 takes {PCT[0]} of what the query reads.
"""


def test_the_oracle_numbers_are_what_the_page_prints():
    assert [f"{w:.4f}" for w in W] == ["0.6590", "0.2424", "0.0986"] and PCT == ["66%", "24%", "10%"]


def test_the_clean_page_gives_nothing():
    assert error_lines(VECTOR) == {}


def test_one_wrong_percentage_is_found_on_its_line_by_the_two_that_agree():
    text = VECTOR.replace("key 1: 24%", "key 1: 42%")
    errs = error_lines(text)
    assert sorted(errs) == [line_of(text, "key 1: 42%")]
    f = errs[line_of(text, "key 1: 42%")][0]
    assert (f.printed, f.rounded) == ("42%", "24%") and abs(f.exact - 100 * float(f"{W[1]:.4f}")) < 1e-9
    assert "0.2424" in f.cause


def test_a_made_up_split_that_sums_to_100_is_found_by_the_positions_it_names_and_said_again():
    # every percentage wrong, but they sum to 100 and each names its key in order: a reading of the row
    text = VECTOR.replace("key 0: 66%", "key 0: 60%").replace("key 1: 24%", "key 1: 28%") \
        .replace("key 2: 10%", "key 2: 12%").replace("So key 0 takes 66%", "So key 0 takes 60%")
    errs = error_lines(text)
    assert sorted(errs) == [line_of(text, s) for s in ("key 0: 60%", "key 1: 28%", "key 2: 12%")]
    assert [errs[line_of(text, s)][0].rounded for s in ("key 0:", "key 1:", "key 2:")] == PCT
    # said again further on: one slip, one finding, so a note that points back to the first line
    again = [f for f in check_document(text, fmt="md").findings if f.line == line_of(text, "takes 60%")]
    assert [f.severity for f in again] == ["note"]
    assert again[0].cause.startswith(f"follows from line {line_of(text, 'key 0: 60%')}:")


@pytest.mark.parametrize("change", [
    ("- key 0: 66%", "- key 0: about 60%"),            # an approximation is a paraphrase, not a reading
    ("- key 2: 10%", "- key 2: the rest"),             # two percentages for three weights: not the row
])
def test_what_is_not_a_reading_of_the_row_says_nothing(change):
    text = VECTOR.replace("key 1: 24%", "key 1: 28%").replace(*change)
    assert error_lines(text) == {}


def test_all_wrong_without_positions_named_is_not_identified():
    # every percentage wrong and no position named: nothing ties the prose to this row
    text = VECTOR.replace("- key 0: 66%", "- the first: 60%").replace("- key 1: 24%", "- the second: 28%") \
        .replace("- key 2: 10%", "- the last: 12%")
    assert error_lines(text) == {}


S = [[0.4], [0.2, 0.8], [0.1, 0.5, 0.9]]                  # the causal scores, row by row
A = [list(softmax(r)) + [0.0] * (3 - len(r)) for r in S]


def _tex_row(vals, fmt):
    return " & ".join(fmt(v) for v in vals)


MATRIX = ("# Causal weights for three tokens\n\n$$\nS = \\begin{pmatrix} "
          + " \\\\ ".join(_tex_row(r + [None] * (3 - len(r)), lambda v: "-\\infty" if v is None else f"{v:.1f}")
                          for r in S)
          + " \\end{pmatrix}\n$$\n\nAfter the softmax of each row:\n\n$$\nA = \\begin{pmatrix} "
          + " \\\\ ".join(_tex_row(r, lambda v: f"{v:.3f}") for r in A)
          + f" \\end{{pmatrix}}\n$$\n\nToken 1 can attend {100 * A[1][0]:.0f}% to token 0 and {100 * A[1][1]:.0f}% "
          "to itself, and to nothing after it.\n")


def test_a_row_of_a_matrix_is_found_by_its_count_of_live_weights():
    # row 1 of A has two live weights; 35% agrees with 0.354, and 35 + 64 = 99 is 100 within the rounding
    assert f"{A[1][0]:.3f} & {A[1][1]:.3f}" == "0.354 & 0.646" and "65% to itself" in MATRIX
    text = MATRIX.replace("65% to itself", "64% to itself")
    errs = check_document(text, fmt="md").findings
    pct = [f for f in errs if f.severity == "error" and "percent" in f.claim]
    assert [(f.line, f.printed, f.rounded) for f in pct] == [(line_of(text, "64% to itself"), "64%", "65%")]
    assert not [f for f in check_document(MATRIX, fmt="md").findings if "percent" in f.claim]


# ---------------------------------------------------------------- one share, the same for every visible position
AVERAGE = """# An average over the past

```
row 3: [0.25, 0.25, 0.25, 0.25, 0.0, 0.0]
       1/4 = 0.25
       position 3 gives 25% weight to each of positions 0, 1, 2, 3

row 4: [0.2, 0.2, 0.2, 0.2, 0.2, 0.0]
       position 4 gives about 20% to each of them
```
"""


def _equal_shares(text: str) -> list:
    from mha.check.claims.percentquote import equal_shares
    return equal_shares(md_document(text), [], text)


def test_one_percentage_for_each_of_equal_weights_is_judged():
    assert _equal_shares(AVERAGE) == []
    text = AVERAGE.replace("gives 25% weight", "gives 52% weight")
    got = _equal_shares(text)
    assert [f.line for f in got] == [6] and got[0].rounded == "25%", [f.describe() for f in got]
    # "about 20%" is a paraphrase, and a sentence without "weight to each" reads nothing
    assert _equal_shares(AVERAGE.replace("about 20%", "about 30%")) == []
    assert _equal_shares(text.replace("weight to each", "more than each")) == []


# ---------------------------------------------------------------- one entry, its row named on the line above
POSITIONS = """# What each query keeps

Attention weights (after softmax):

```
        Pos0   Pos1   Pos2
Query0 [0.620, 0.230, 0.150]
Query1 [0.090, 0.710, 0.200]
Query2 [0.300, 0.300, 0.400]
```

**Position 1:**
- After softmax: 71.0% attention to position 1

**Position 2:**
- It spreads out, with 40.0% attention to position 2
"""


def _position_percents(text: str) -> list:
    from mha.check.claims.percentquote import position_percents
    return position_percents(md_document(text), [], text)


def test_one_percentage_to_a_named_position_under_its_query_is_judged():
    assert _position_percents(POSITIONS) == []
    text = POSITIONS.replace("71.0% attention", "17.0% attention")
    got = _position_percents(text)
    assert [f.line for f in got] == [13] and got[0].rounded == "71.0%", [f.describe() for f in got]
    # without a position 0 named anywhere, "position 1" could be the first or the second: nothing is read
    unknown = text.replace("Pos0", "PosA").replace("Query0", "QueryA")
    assert _position_percents(unknown) == []
