"""A wrong value quoted again (issue 18): a softmax row found wrong is read out again as percentages, written into
the weighted sum and copied into a summary table.  One slip, one finding: each quote is a note pointing to the line
where the value was found wrong (claims/requoted.py), never a second error, so a mistaken finding is never counted
twice.  A quote needs three numbers of the found object in a row (each judged one has two witnesses); two are not
enough, the clean page gives nothing, and a row that no reading identifies is followed by nothing.  My own pages
and numbers: softmax([1.2, 0.4, -0.3]) = [0.5979, 0.2687, 0.1334]; softmax([1.1, 0.4, -0.25]) = [0.5695, 0.2828,
0.1476] (÷√2: [0.5014, 0.3056, 0.1930])."""

from mha.check import check_document
from mha.check.claims.requoted import requoted, tokens
from mha.check.infer import infer, prepare
from mha.check.verdict import judge_document
from mha.check.readers import read_document

WRONG = """# Three keys for one query

The query's scores against the three keys, and their softmax:

```
softmax([1.2, 0.4, -0.3]) = [0.57, 0.29, 0.14]
```

How the query spreads its attention:

- 57% goes to "cat"
- 29% goes to "sat"
- 14% goes to "mat"

The output mixes the values with these weights:

```
out = 0.57 × v("cat") + 0.29 × v("sat") + 0.14 × v("mat")
```

| query | cat | sat | mat |
|---|---|---|---|
| "mat" | 0.57 | 0.29 | 0.14 |
"""

CLEAN = (WRONG.replace("0.57", "0.60").replace("0.29", "0.27").replace("0.14", "0.13")
         .replace("57%", "60%").replace("29%", "27%").replace("14%", "13%"))


def _errors(text: str, severity: str = "error") -> dict[int, list]:
    out: dict[int, list] = {}
    for f in check_document(text, fmt="md").findings:
        if f.severity == severity:
            out.setdefault(f.line, []).append(f)
    return out


def _notes(text: str) -> dict[int, list]:
    return {line: fs for line, fs in _errors(text, "note").items() if "quoted again" in fs[0].claim}


def test_each_quote_of_a_wrong_row_is_a_note_pointing_to_its_line():
    assert sorted(_errors(WRONG)) == [6]
    notes = _notes(WRONG)
    assert sorted(notes) == [11, 12, 13, 18, 23]
    pct = notes[11][0]
    assert (pct.printed, pct.rounded) == ("57%", "60%") and abs(pct.exact - 59.7922) < 1e-3
    assert pct.cause.startswith("follows from line 6")
    assert [f.printed for f in notes[18]] == ["0.57", "0.29", "0.14"]
    assert [f.rounded for f in notes[23]] == ["0.60", "0.27", "0.13"]


# one query against three keys, started from its printed scores: the weights are identified by their cells
ROW = """# One query, three keys

The keys are the rows of K, with values V:

```
K = [[1.0, 0.2], [0.4, 0.0], [-0.3, 0.1]]
V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
```

Scores, q·k_j: [1.1, 0.4, -0.25]

Softmax of the scores (no scaling), the attention weights: [0.57, 0.28, 0.15]

How the query spreads its attention:

- 57% goes to "cat"
- 28% goes to "sat"
- 15% goes to "mat"

Output: [0.72, 0.43]
"""


def test_a_correct_requote_gives_nothing():
    assert _errors(ROW) == {} and _notes(ROW) == {}


def test_a_requoted_slip_is_one_error_and_a_note():
    text = ROW.replace("0.57, 0.28, 0.15", "0.57, 0.82, 0.15").replace("28%", "82%")
    errs, notes = _errors(text), _notes(text)
    assert sorted(errs) == [12] and errs[12][0].printed == "0.82"
    assert sorted(notes) == [17] and notes[17][0].printed == "82%" and notes[17][0].rounded == "28%"
    assert "line 12" in notes[17][0].cause


def test_a_row_no_reading_identifies_is_not_followed():
    # between the unscaled and the ÷√2 weights: every cell is off under both readings, so the row is not checked,
    # and its quote in the list below is neither an error nor a note
    text = ROW.replace("0.57, 0.28, 0.15", "0.53, 0.29, 0.17").replace("57%", "53%").replace(
        "28%", "29%").replace("15%", "17%")
    assert _errors(text) == {} and _notes(text) == {}


def test_a_finding_whose_array_is_not_identified_by_other_cells_is_not_followed():
    # the gate itself: the slip's row, with the judge's attribution of it taken away, has no independent identity
    text = ROW.replace("0.57, 0.28, 0.15", "0.57, 0.82, 0.15").replace("28%", "82%")
    doc = read_document(text, "md")
    objs, bases = prepare(doc)
    inf = infer(doc, objs, bases)
    j = judge_document(doc, inf, inf.best.cand.mapping(), given=False)
    errors = [f for f in j.findings if f.severity == "error"]
    assert len(requoted(doc, errors, text, j.plans)) == 1
    row = next(a for a in doc.arrays if any(n.text == "0.82" for n in a.numbers))
    unknown = {**j.plans, row.id: {"kind": "unknown", "hit": j.plans[row.id]["hit"]}}
    assert requoted(doc, errors, text, unknown) == []


def test_the_clean_page_gives_nothing():
    assert _errors(CLEAN) == {}


def test_two_numbers_in_a_row_do_not_identify_a_quote():
    text = WRONG.replace("- 14% goes to \"mat\"", "- the rest goes to \"mat\"")
    text = text.replace("+ 0.14 × v(\"mat\")", "+ 0.1 × v(\"mat\") + 0.04 × v(\"mat\")")
    text = text.replace("| 0.57 | 0.29 | 0.14 |", "| 0.57 | 0.29 | 0.15 |")
    assert sorted(_errors(text)) == [6] and _notes(text) == {}


def test_a_row_that_holds_by_its_own_terms_is_not_a_quote():
    # the same three weights under scores that do give them (a second example) are right there
    text = WRONG + "\nAnother query:\n\n```\nsoftmax([1.44, 0.76, 0.03]) = [0.57, 0.29, 0.14]\n```\n"
    line = text.splitlines().index("softmax([1.44, 0.76, 0.03]) = [0.57, 0.29, 0.14]") + 1
    assert line > 23 and line not in _errors(text) and line not in _notes(text)


def test_tokens_read_percentages_escaped_urls_and_skip_integers_and_names():
    got = [(t.line, t.text, str(t.value), t.decimals) for t in tokens(
        "row 2 of V1: 0.25, 53\\% and q_3\n"
        "![A](https://latex.codecogs.com/svg.latex?%5Cbegin%7Bbmatrix%7D%200.44%20%26%200.10%20%5Cend%7Bbmatrix%7D)")]
    assert got == [(1, "0.25", "0.25", 2), (1, "53%", "0.53", 2), (2, "0.44", "0.44", 2), (2, "0.10", "0.10", 2)]


WRITTEN = "\nWritten out with the values:\n\n```\nout = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4] + 0.14 × [0.6, 0.8]\n```\n"


def test_a_weighted_sum_written_with_its_vectors_quotes_the_weights():
    text = WRONG + WRITTEN
    line = text.splitlines().index("out = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4] + 0.14 × [0.6, 0.8]") + 1
    assert [f.printed for f in _notes(text)[line]] == ["0.57", "0.29", "0.14"]
    clean = CLEAN + WRITTEN.replace("0.57", "0.60").replace("0.29", "0.27").replace("0.14", "0.13")
    assert _errors(clean) == {} and _notes(clean) == {}


def test_blocks_of_unequal_size_are_not_a_weighted_sum():
    text = WRONG + WRITTEN.replace("[0.2, -0.4]", "[0.2, -0.4, 0.3]")
    line = text.splitlines().index("out = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4, 0.3] + 0.14 × [0.6, 0.8]") + 1
    assert line not in _errors(text) and line not in _notes(text)



def test_a_number_noted_as_following_from_rounded_scores_is_a_note_when_quoted_again():
    """A weight printed 0.769 in the matrix gets a note (softmax of scores printed to 2 decimals gives 0.7688; the
    exact 0.7679 rounds to 0.768); the same 0.769 read out in a sentence below is that number again, so it gets the
    note too, not an error of its own (an outside trial's page had exactly this).  Another number stays an error."""
    from mha.check.claims.requoted import rounded_requotes
    from mha.check.report import Finding
    why = "follows from the rounded scores printed before it (they give 0.768801); the exact 0.767918 rounds to 0.768"
    cell = Finding(12, None, "A[1,2]", "0.769", 0.767918, "0.768", "softmax", why, "rounded_sum", "note")
    quote = Finding(20, None, "A: the strongest (0.769)", "0.769", 0.767918, "0.768", "softmax", None, "wrong_value")
    slip = Finding(21, None, "A: the weakest (0.167)", "0.167", 0.186694, "0.187", "softmax", None, "wrong_value")
    before = Finding(5, None, "A: quoted first (0.769)", "0.769", 0.767918, "0.768", "softmax", None, "wrong_value")
    findings = [before, cell, quote, slip]
    rounded_requotes(findings)
    assert quote.severity == "note" and "line 12" in quote.cause and why in quote.cause
    assert slip.severity == "error" and before.severity == "error"


def test_the_summary_counts_quotes_of_a_slip_apart_from_rounding_notes():
    """Notes that repeat a value found wrong are no notes on rounding: the summary says what they are."""
    r = check_document(WRONG, fmt="md")
    assert len(r.errors) == 3 and len(r.notes) == 9
    assert "9 note(s) on values carried from a slip found before" in r.summary()
    assert "on rounding" not in r.summary()
