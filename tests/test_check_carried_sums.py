"""Exponentials listed one a line, then their sum: when one exponential is found wrong and the sum adds the printed
terms right, the sum is off only because of that term.  One slip, one finding: the sum gets a note that points to
it.  A sum that does not add its own terms is still an error.  The page is this project's own."""

from check_helpers import error_lines

PAGE = """# Softmax by hand, row 1

Scores: [0.9, 0.2, 0.5]

```
exp(0.9) = 2.4596
exp(0.2) = EXP2
exp(0.5) = 1.6487
Sum = SUM
Softmax = [0.4615, 0.2292, 0.3093]
```
"""


def _check(exp2: str, total: str):
    from mha.check import check_document
    return check_document(PAGE.replace("EXP2", exp2).replace("SUM", total), fmt="md").findings


def test_a_sum_of_the_printed_terms_with_one_wrong_is_a_note_on_that_term():
    found = _check("1.2314", "5.3397")          # e^0.2 is 1.2214; the terms as printed add up to 5.3397
    errors = [f for f in found if f.severity == "error"]
    assert [(f.line, f.printed) for f in errors] == [(7, "1.2314")]
    note = next(f for f in found if f.line == 9)
    assert note.severity == "note" and note.cause.startswith("follows from line 7")


def test_a_sum_off_its_own_terms_is_still_an_error():
    assert list(error_lines(PAGE.replace("EXP2", "1.2214").replace("SUM", "5.3497"))) == [9]
