"""A total worked from rounded exponentials, `1.236 + 1.000 + 1.528 = 3.764`, where the exact total 3.76478 rounds
to 3.765 (t148d, a textbook chapter's worked decoder step).

The line is right, and it got a note, as it should: but the note said "3.76478 cut off after 3 decimals, not
rounded", blaming a truncation the author never made.  When the printed terms give the printed total, the note now
says so: a sum of rounded terms.
"""

from mha.check import check_document

DOC = """# One decoder step

Take the query q = [0.3, 0.6] and the keys k1 = [1, 0], k2 = [1, -0.5], k3 = [0, 1], with d_k = 2. The dot \
products are 0.3, 0.0 and 0.6; divided by √2 they become 0.212, 0.000 and 0.424. Exponentiate: exp(0.212) ≈ 1.236, \
exp(0.000) = 1.000, exp(0.424) ≈ 1.528, which add up to 1.236 + 1.000 + 1.528 = {total}. Dividing each by the \
total gives the weights 0.328, 0.266 and 0.406.
"""


def test_the_total_of_the_printed_terms_is_noted_as_such():
    r = check_document(DOC.format(total="3.764"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    notes = [f for f in r.findings if f.printed == "3.764"]
    assert len(notes) == 1 and notes[0].cause.startswith("sum of rounded terms: the printed terms give 3.764"), \
        [f.describe() for f in r.findings]
    assert "cut off" not in notes[0].cause


def test_a_slip_in_the_total_is_found():
    r = check_document(DOC.format(total="3.784"), fmt="md")
    assert [f.printed for f in r.errors] == ["3.784"], [f.describe() for f in r.findings]
