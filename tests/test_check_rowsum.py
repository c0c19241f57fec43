"""Attention weights whose row does not sum to 1 (issue 18, own-error recall; claims/rowsum.py).

A table of causal weights under its masked scores, as a story-style lesson prints them: rows named by the tokens of
a sentence, its full stop among them.  A row made up by hand that sums to 0.60 is wrong whatever the scores were,
and a weight where the score was masked (-inf) must be 0.  My own sentence and numbers; the weights are recomputed
here with NumPy, independently of mha."""

import numpy as np
import pytest
from check_helpers import md_document

from mha.check import check_document
from mha.inputs import MHAInputError

TOKENS = ["I", "saw", "it", "."]
S = [[0.3], [0.1, 0.5], [-0.2, 0.4, 0.6], [0.0, 0.2, 0.1, 0.3]]       # the causal scores, row by row


def _softmax(x):
    e = np.exp(np.asarray(x, dtype=float) - np.max(x))
    return e / e.sum()


A = [list(_softmax(r)) + [0.0] * (4 - len(r)) for r in S]


def _table(rows, fmt) -> str:
    head = " " * 9 + "".join(f"{t:<7}" for t in TOKENS)
    return "\n".join([head.rstrip()] + [f"{t:<9}" + "".join(f"{fmt(v):<7}" for v in r).rstrip()
                                        for t, r in zip(TOKENS, rows)])


SCORES = _table([r + [None] * (4 - len(r)) for r in S], lambda v: "-inf" if v is None else f"{v:.2f}")
WEIGHTS = _table(A, lambda v: f"{v:.2f}")

PAGE = f"""# Who looks at whom in "I saw it."

The scores after the causal mask:

```
{SCORES}
```

Attention weights (after softmax):

```
{WEIGHTS}
```
"""


def _findings(text: str) -> list:
    """The findings, none when the page is refused as holding nothing to check (exit 2)."""
    try:
        return check_document(text, fmt="md").findings
    except MHAInputError:
        return []


def _errors(text: str) -> dict[int, list]:
    out: dict[int, list] = {}
    for f in _findings(text):
        if f.severity == "error":
            out.setdefault(f.line, []).append(f)
    return out


def _row_line(text: str, token: str, after: str = "Attention weights") -> int:
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if after in ln)
    return next(i for i, ln in enumerate(lines) if i > start and ln.startswith(f"{token} ")) + 1


def _row(token: str) -> str:
    return WEIGHTS.splitlines()[1 + TOKENS.index(token)]


def test_the_oracle_rows_sum_to_one_as_printed():
    assert _row("it").split()[1:] == ["0.20", "0.36", "0.44", "0.00"]
    assert _row(".").split()[1:] == ["0.21", "0.26", "0.24", "0.29"]


def test_the_clean_page_gives_nothing():
    assert _errors(PAGE) == {}


def test_a_made_up_row_that_sums_to_060_is_found_on_its_line():
    text = PAGE.replace(_row("it"), "it       0.18   0.30   0.12   0.00")
    errs = _errors(text)
    line = _row_line(text, "it")
    assert line in errs
    sums = [f for f in errs[line] if "sum" in f.claim]
    assert not sums or (sums[0].printed.endswith("= 0.60") and sums[0].rounded == "1.00")


def test_the_full_stop_row_is_read_and_judged():
    text = PAGE.replace(_row("."), ".        0.10   0.20   0.15   0.25")
    assert _row_line(text, ".") in _errors(text)


def test_a_weight_where_the_score_is_masked_is_an_error():
    # the row still sums to 1, but it gives weight to "it", whose score for "saw" is masked
    text = PAGE.replace(_row("saw"), "saw      0.30   0.50   0.20   0.00")
    errs = _errors(text)
    line = _row_line(text, "saw")
    assert line in errs
    assert any(f.printed == "0.20" and f.rounded == "0.00" for f in errs[line])


@pytest.mark.parametrize("caption", ["Attention weights before softmax (exp of the scores):",
                                     "Attention weights after dropout:"])
def test_weights_that_need_not_sum_to_one_are_left_alone(caption):
    text = PAGE.replace("Attention weights (after softmax):", caption) \
        .replace(_row("it"), "it       0.18   0.30   0.12   0.00")
    assert not [f for fs in _errors(text).values() for f in fs if "sum" in f.claim]


def test_a_view_of_the_first_columns_is_not_judged_by_its_sums():
    # three of four columns printed: the "." row's last weight is out of view, so its sum says nothing
    cut = "\n".join(ln[:30].rstrip() for ln in WEIGHTS.splitlines())
    text = f"# A view\n\nAttention weights (after softmax), first three keys:\n\n```\n{cut}\n```\n"
    assert not [f for f in _findings(text) if "sum" in f.claim]



# ---------------------------------------------------------------- masked weights written as a bare 0
AVERAGES = """# Averaging the past

Each row of the causal weights gives the same share to every token it can see:

| Row | Weights | Share |
|-----|---------|-------|
| 0 | [1.0, 0, 0, 0, 0, 0] | 1/1 |
| 1 | [0.5, 0.5, 0, 0, 0, 0] | 1/2 |
| 2 | [0.333, 0.333, 0.333, 0, 0, 0] | 1/3 |
| 3 | [0.25, 0.25, 0.25, 0.25, 0, 0] | 1/4 |
| 4 | [0.2, 0.2, 0.2, 0.2, 0.2, 0] | 1/5 |
| 5 | [0.167, 0.167, 0.167, 0.167, 0.167, 0.167] | 1/6 |
"""


def _row_sums(text: str) -> list:
    from mha.check.claims.rowsum import row_sums
    return row_sums(md_document(text), [], text)


def test_a_row_with_bare_zeros_is_judged_at_the_precision_of_its_decimals():
    # a bare 0 among three-decimal weights stands for 0.000, not for anything in [-0.5, 0.5]: the row
    # 0.333 + 0.383 + 0.333 + 0 + 0 + 0 = 1.049 is off by more than its six roundings allow (0.003)
    assert _row_sums(AVERAGES) == []
    text = AVERAGES.replace("[0.333, 0.333, 0.333, 0", "[0.333, 0.383, 0.333, 0")
    got = _row_sums(text)
    assert [f.line for f in got] == [text.splitlines().index("| 2 | [0.333, 0.383, 0.333, 0, 0, 0] | 1/3 |") + 1]
    assert "1.049" in got[0].describe()


ATTENDS = """# Who looks at whom

Every row is a word of "dogs chase cats"; every column is what that word attends to.

```
         dogs   chase  cats
dogs     1.00   0.00   0.00
chase    0.38   0.62   0.00
cats     0.21   0.47   0.32
```
"""


def test_a_table_captioned_by_what_each_word_attends_to_is_weights():
    assert _row_sums(ATTENDS) == []
    text = ATTENDS.replace("0.21   0.47   0.32", "0.21   0.74   0.32")
    got = _row_sums(text)
    assert [f.line for f in got] == [text.splitlines().index("cats     0.21   0.74   0.32") + 1]


ONE_ROW = r"""# Two queries, one shared key and value matrix

After scaling and the softmax, the first query's weights are

$$
A_1 \approx \begin{bmatrix} 0.7311 & 0.2689 \end{bmatrix}
$$

and a view of the first three weights of a longer row: $A_2 = \begin{bmatrix} 0.21 & 0.35 & 0.18 \end{bmatrix}$.
"""


def test_one_row_named_as_the_weights_is_judged_by_its_sum():
    # softmax([1, 0]) = [0.7311, 0.2689]; a row that sums to 0.9991 is wrong whatever the configuration
    assert _row_sums(ONE_ROW) == []
    text = ONE_ROW.replace("0.7311 & 0.2689", "0.7311 & 0.2680")
    got = _row_sums(text)
    assert [f.line for f in got] == [6] and "0.9991" in got[0].describe()
    # a row far from 1 is a view of some of its columns, not a slip: nothing said
    assert _row_sums(ONE_ROW.replace("0.21 & 0.35 & 0.18", "0.21 & 0.35 & 0.38")) == []


def test_whole_rows_of_more_keys_than_queries_are_judged():
    """Three queries over four keys (cross-attention): two rows that end in a weight above 0 sum to 1, so the rows
    are whole, and a row that sums to 1.01 is a slip (it was not judged: the matrix is not square)."""
    rows = [_softmax(r) for r in ([0.2, 0.9, -0.4, 0.1], [1.1, 0.3, 0.0, -0.6], [0.5, 0.5, 0.8, 0.2])]
    body = "\n".join(("A = [[" if i == 0 else "     [") + ", ".join(f"{x:.4f}" for x in r) + "]" +
                     ("]" if i == 2 else ",") for i, r in enumerate(rows))
    text = f"# Cross-attention\n\nAttention weights:\n\n```\n{body}\n```\n"
    assert not _findings(text)
    right = f"{rows[1][1]:.4f}"
    slipped = text.replace(right, f"{rows[1][1] + 0.01:.4f}")
    assert [f.line for f in _findings(slipped)] == [7], [f.describe() for f in _findings(slipped)]


def test_a_table_headed_query_word_and_attention_to_is_weights():
    """`| Query Word | Attention to: the | cat | ... |` over rows of weights (trial t173a): the corner cell was read as
    the label Q, so the rows were never summed and a slipped weight (a row summing to 1.10) was not found."""
    words = ["a", "red", "fox", "ran"]
    rows = [_softmax(r) for r in ([0.3, 0.1, 0.9, 0.2], [0.0, 1.2, 0.4, 0.3], [0.8, 0.2, 0.1, 1.1])]
    head = "| Query Word | Attention to: " + " | ".join(words) + " |\n|" + "---|" * 5
    body = "\n".join(f"| **{w}** | " + " | ".join(f"{x:.2f}" for x in r) + " |" for w, r in zip(words, rows))
    text = f"# Who attends to whom\n\n{head}\n{body}\n"
    assert not _findings(text)
    right = f"| {rows[1][1]:.2f} |"
    slipped = text.replace(right, f"| {rows[1][1] + 0.1:.2f} |")
    assert [f.line for f in _findings(slipped)] == [6], [f.describe() for f in _findings(slipped)]
