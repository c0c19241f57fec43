"""Exponentials and their row sum worked from the scores as printed, rounded: e^{1.414} = 4.112 where e^{√2} is
4.113, and a sum of 7.140 where the exact scores give 7.141.  The author's arithmetic is right for the numbers on
the page; each is a note that names both values, not an error (claims/arith._from_printed_scores)."""

import pytest

from mha.check import check_document

ROUNDED = """# Two queries against three keys

Given $Q = \\begin{pmatrix}1&1\\\\0&1\\end{pmatrix}$, $K = \\begin{pmatrix}1&1\\\\1&0\\\\0&0\\end{pmatrix}$ and
$V = \\begin{pmatrix}1&0\\\\0&1\\\\1&1\\end{pmatrix}$, with $d_k = 2$.

1. **Scores.** Row 1: $[2,\\ 1,\\ 0]$. Row 2: $[1,\\ 0,\\ 0]$.
2. **Scaled by $\\sqrt{2}$.** Row 1: $[1.414,\\ 0.707,\\ 0]$. Row 2: $[0.707,\\ 0,\\ 0]$.
3. **Softmax of row 1.** The exponentials are $4.112$, $2.028$ and $1$;
   sum $= 7.140$. $\\alpha_1 = [0.576,\\ 0.284,\\ 0.140]$.
"""


def test_exponentials_and_sum_of_the_printed_scores_are_notes():
    r = check_document(ROUNDED, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    notes = {f.line: f for f in r.findings if f.severity == "note"}
    assert sorted(notes) == [8, 9]
    assert "rounded scores printed before it (they give 7.14027)" in notes[9].describe()
    assert "rounded scores printed before it (they give 4.11237)" in notes[8].describe()


def test_the_exact_values_written_are_not_notes():
    r = check_document(ROUNDED.replace("$4.112$", "$4.113$").replace("7.140", "7.141"), fmt="md")
    assert not r.errors and not [f for f in r.findings if f.line in (8, 9)], [f.describe() for f in r.findings]


@pytest.mark.parametrize("find, replace, line", [("7.140", "7.410", 9), ("$4.112$", "$4.121$", 8),
                                                 ("$2.028$", "$2.082$", 8)])
def test_a_slip_beyond_either_reading_is_an_error(find, replace, line):
    r = check_document(ROUNDED.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def _head_weights_notebook(rows: list[str]) -> str:
    import json
    code = ("attn = torch.softmax(scores, dim=-1)\n"
            "print(\"第 2 个头的注意力权重：\\n\", attn[0, 1].detach())")
    out = "第 2 个头的注意力权重：\n tensor([" + ",\n        ".join(rows) + "])\n"
    cell = {"cell_type": "code", "id": "head-weights", "execution_count": 1, "metadata": {}, "source": code,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


HEAD_ROWS = ["[0.4738, 0.2325, 0.2595, 0.0341]", "[0.5007, 0.2600, 0.0598, 0.1795]",
             "[0.2504, 0.1086, 0.5024, 0.1386]", "[0.1970, 0.1239, 0.4313, 0.2478]"]


def test_a_head_s_weights_printed_under_words_are_judged_by_their_row_sums():
    """A print whose caption says attention weights in words ("第 2 个头的注意力权重") names a softmax output as much
    as `attn_weights` does: a row that does not add up to 1 is a slip, whatever the configuration (none here)."""
    clean = check_document(_head_weights_notebook(HEAD_ROWS), fmt="ipynb")
    assert not clean.findings, [f.describe() for f in clean.findings]
    bad = HEAD_ROWS[:2] + ["[0.2504, 0.1068, 0.5024, 0.1386]"] + HEAD_ROWS[3:]
    r = check_document(_head_weights_notebook(bad), fmt="ipynb")
    assert [(f.cell, f.line, f.severity) for f in r.findings] == [(1, 4, "error")], [f.describe() for f in r.findings]


def test_a_pair_of_exponentials_under_its_row_is_that_row_s():
    """`Row 0: [0, 2.83]` then `exp: [1, 16.95]`: the pair is the exponential of the row above it (within the row's
    rounding), so its identity is that row's, not the configuration's row it happens to resemble in one entry
    (an outside page's wrong K made the trace's row [0, -4]: "exact 0.0183" for 16.95)."""
    from types import SimpleNamespace as NS

    import numpy as np

    from mha.check.claims.identity import _exp_of_the_row_above
    from mha.check.labels import parse_label

    def obj(vals, half, line, name=None):
        v = np.array([vals], dtype=float)
        return NS(val=v, lo=v - half, hi=v + half, ref=parse_label(name) if name else None,
                  a=NS(place=NS(cell=3), line=line))
    row = obj([0.0, 2.83], 0.005, 1)
    exps = obj([1.0, 16.95], 0.005, 2, "exp")
    assert _exp_of_the_row_above([row, exps], exps)
    other = obj([1.0, 17.95], 0.005, 2, "exp")                  # not e^2.83: not that row's exponentials
    assert not _exp_of_the_row_above([row, other], other)
    far = obj([1.0, 16.95], 0.005, 9, "exp")
    assert not _exp_of_the_row_above([row, far], far)          # not just above: no tie


WHOLE_SCORES = """# One position, three keys

The scores after scaling and masking, as the program shows them:

```text
score = [3.0, 1.0, 0.0]
```

Their softmax:

```text
weight = [0.844, 0.114, 0.042]
```
"""


def test_whole_scores_shown_with_one_decimal_are_the_values_themselves():
    """[3.0, 1.0, 0.0] in a text block is read like a program's rounded printout, but whole values every one are
    the values: the weights are judged at their own rounding, so a weight off by 0.004 is found."""
    r = check_document(WHOLE_SCORES, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    bad = check_document(WHOLE_SCORES.replace("0.844, 0.114", "0.848, 0.114"), fmt="md")
    assert [f.line for f in bad.errors] == [12], [f.describe() for f in bad.findings]
