"""The root of a size stated on the same line (claims/rootline.py): "d = 4, so √d = 2".  My own sentences."""

from mha.check import check_document

DOC = """# Two keys, one query

Query = [0.5, 0.1, 0.4, 0.2]

Key_a = [0.3, 0.9, 0.2, 0.6]

Key_b = [0.7, 0.4, 0.1, 0.8]

Scores: Query · Key_a = 0.15 + 0.09 + 0.08 + 0.12 = 0.44 and Query · Key_b = 0.35 + 0.04 + 0.04 + 0.16 = 0.59.

The vectors have d = 4 entries, so √d = {root} and each score is divided by it.

With the usual sizes of a big model, d_model = 512 and h = 8 give d_k = 64, so \\sqrt{{d_k}} = {big}.
"""


def _errors(root: str, big: str = "8") -> list:
    r = check_document(DOC.format(root=root, big=big), fmt="md")
    return [f for f in r.findings if f.severity == "error"]


def test_a_root_of_a_size_given_on_its_line_is_checked():
    assert not _errors("2")
    errs = _errors("4")
    assert [(f.line, f.printed, f.rounded, f.step) for f in errs] == [(11, "4", "2", "scale")]
    errs = _errors("2", big="6.4")
    assert [(f.line, f.printed) for f in errs] == [(13, "6.4")]


def test_rounded_or_cut_roots_and_other_symbols_are_left_alone():
    doc = ("Here d_k = 8, so √d_k ≈ 2.83, or 2.82 cut short.\n\nAlso d_k = 8 and √d_k = 2.82 on one line.\n\n"
           "With d = 512 the heads get √d_k = 8 each.\n\nQ = [[1, 0], [0, 1]]\n\nK = [[1, 1], [0, 2]]\n\n"
           "S = [[0.7071, 0.0000], [0.7071, 1.4142]]\n")
    r = check_document(doc, fmt="md")
    assert not [f for f in r.findings if f.severity == "error"], [f.describe() for f in r.findings]


def test_a_root_inside_words_before_the_equals_is_no_root_claim():
    """"std after dividing by √d = 1.00": the 1.00 is the spread after the division, not √d (an outside page's
    table of d = 4, 64, 768 drew three false errors); a root that starts its own equation is still judged."""
    table = ("d =   4   std(q·k) =  1.99   std after dividing by √d = 1.00\n\n"
             "d =  64   std(q·k) =  8.05   std after dividing by √d = 1.01\n")
    r = check_document(table + "\nQ = [[1, 0], [0, 1]]\n\nK = [[1, 1], [0, 2]]\n", fmt="md")
    assert not [f for f in r.errors if f.claim.startswith("√")], [f.describe() for f in r.errors]
    r = check_document("d =   4   std(q·k) =  1.99,  so √d = 3\n\nQ = [[1, 0], [0, 1]]\n\nK = [[1, 1], [0, 2]]\n",
                       fmt="md")
    assert [f.claim for f in r.errors] == ["√d"], [f.describe() for f in r.errors]
