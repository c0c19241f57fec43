"""A wrong value quoted again (issue 18, own-error recall): a softmax row found wrong is read out again as
percentages, written into the weighted sum and copied into a summary table.  Each quote is a place the author must
correct, so each is an error pointing to the line where the value was found wrong (claims/requoted.py).  A quote
needs three numbers of the found object in a row (each judged one has two witnesses); two are not enough, and the
clean page gives nothing.  My own page and numbers: softmax([1.2, 0.4, -0.3]) = [0.5979, 0.2687, 0.1334]."""

from mha.check import check_document
from mha.check.claims.requoted import tokens

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


def _errors(text: str) -> dict[int, list]:
    out: dict[int, list] = {}
    for f in check_document(text, fmt="md").findings:
        if f.severity == "error":
            out.setdefault(f.line, []).append(f)
    return out


def test_each_quote_of_a_wrong_row_is_an_error_pointing_to_its_line():
    errs = _errors(WRONG)
    assert sorted(errs) == [6, 11, 12, 13, 18, 23]
    pct = errs[11][0]
    assert (pct.printed, pct.rounded) == ("57%", "60%") and abs(pct.exact - 59.7922) < 1e-3
    assert "line 6" in pct.cause
    assert [f.printed for f in errs[18]] == ["0.57", "0.29", "0.14"]
    assert [f.rounded for f in errs[23]] == ["0.60", "0.27", "0.13"]


def test_the_clean_page_gives_nothing():
    assert _errors(CLEAN) == {}


def test_two_numbers_in_a_row_do_not_identify_a_quote():
    text = WRONG.replace("- 14% goes to \"mat\"", "- the rest goes to \"mat\"")
    text = text.replace("+ 0.14 × v(\"mat\")", "+ 0.1 × v(\"mat\") + 0.04 × v(\"mat\")")
    text = text.replace("| 0.57 | 0.29 | 0.14 |", "| 0.57 | 0.29 | 0.15 |")
    assert sorted(_errors(text)) == [6]


def test_a_row_that_holds_by_its_own_terms_is_not_a_quote():
    # the same three weights under scores that do give them (a second example) are right there
    text = WRONG + "\nAnother query:\n\n```\nsoftmax([1.44, 0.76, 0.03]) = [0.57, 0.29, 0.14]\n```\n"
    line = text.splitlines().index("softmax([1.44, 0.76, 0.03]) = [0.57, 0.29, 0.14]") + 1
    assert line > 23 and line not in _errors(text)


def test_tokens_read_percentages_escaped_urls_and_skip_integers_and_names():
    got = [(t.line, t.text, str(t.value), t.decimals) for t in tokens(
        "row 2 of V1: 0.25, 53\\% and q_3\n"
        "![A](https://latex.codecogs.com/svg.latex?%5Cbegin%7Bbmatrix%7D%200.44%20%26%200.10%20%5Cend%7Bbmatrix%7D)")]
    assert got == [(1, "0.25", "0.25", 2), (1, "53%", "0.53", 2), (2, "0.44", "0.44", 2), (2, "0.10", "0.10", 2)]


WRITTEN = "\nWritten out with the values:\n\n```\nout = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4] + 0.14 × [0.6, 0.8]\n```\n"


def test_a_weighted_sum_written_with_its_vectors_quotes_the_weights():
    text = WRONG + WRITTEN
    line = text.splitlines().index("out = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4] + 0.14 × [0.6, 0.8]") + 1
    assert [f.printed for f in _errors(text)[line]] == ["0.57", "0.29", "0.14"]
    clean = CLEAN + WRITTEN.replace("0.57", "0.60").replace("0.29", "0.27").replace("0.14", "0.13")
    assert _errors(clean) == {}


def test_blocks_of_unequal_size_are_not_a_weighted_sum():
    text = WRONG + WRITTEN.replace("[0.2, -0.4]", "[0.2, -0.4, 0.3]")
    line = text.splitlines().index("out = 0.57 × [1.0, 0.5] + 0.29 × [0.2, -0.4, 0.3] + 0.14 × [0.6, 0.8]") + 1
    assert line not in _errors(text)
