"""A total worked out in a sentence, "The sum is 1.822 + 0.819 + 3.004 = 5.645.": the words before the terms are
its label and the terms are arithmetic, judged against their own printed values as any arithmetic line is
(readers/statements.py, `_decimal_sum`).  Whole numbers added in words ("tokens 1 + 2") stay words."""

from mha.check import check_document

NOTE = """# One query against three keys

The query scores the three keys 0.6, -0.2 and 1.1 (already scaled).

Their exponentials are e^0.6 = 1.822, e^-0.2 = 0.819 and e^1.1 = 3.004.

The sum is 1.822 + 0.819 + 3.004 = 5.645.

So the weights are 1.822 / 5.645 = 0.323, 0.819 / 5.645 = 0.145 and 3.004 / 5.645 = 0.532.

Tokens 1 + 2 together get less weight than token 3 alone.
"""


def _errors(text):
    return [f for f in check_document(text, fmt="md").findings if f.severity == "error"]


def test_a_correct_sum_in_words_checks_clean():
    r = check_document(NOTE, fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert r.n_claims >= 4


def test_a_wrong_total_of_printed_terms_is_found_on_its_line():
    text = NOTE.replace("= 5.645.", "= 6.645.")
    errs = _errors(text)
    assert [(f.line, f.printed) for f in errs] == [(7, "6.645")], [f.describe() for f in errs]
    assert "5.645" in errs[0].cause
