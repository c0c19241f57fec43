"""A worked example kept in the string literals of a script that builds a document (t213d, a lecture addendum
written with python-docx): one line of the page per literal, `'X = [[1, 0, 1],\\n'`.  The script was refused, "no
attention numbers found"; readers/stringlines.py now puts each literal's text on its line and reads the page, so a
slip is found where it is.  A script whose strings are only messages stays a script."""

import pytest

from check_helpers import error_places, line_of
from mha.check.readers.stringlines import string_lines

SCRIPT = '''from docx import Document
from docx.shared import Pt


def build(path):
    doc = Document()
    doc.add_heading("Two tokens, one head", level=1)
    run = doc.add_paragraph().add_run(
        'X = [[1, 0, 1],\\n'
        '     [0, 1, 1]]\\n\\n'
        'Q = K = V = X (no projections)\\n\\n'
        'scores = Q @ K.T = [[2, 1],\\n'
        '                    [1, 2]]\\n\\n'
        'scaled = scores / sqrt(3) = [[1.1547, 0.5774],\\n'
        '                             [0.5774, 1.1547]]\\n\\n'
        'weights = softmax(scaled) = [[0.6405, 0.3595],\\n'
        '                             [0.3595, 0.6405]]\\n\\n'
        'output = weights @ V = [[0.6405, 0.3595, 1.0],\\n'
        '                        [0.3595, {o22}, 1.0]]\\n'
    )
    run.font.size = Pt(9)
    doc.save(path)
'''


def page(o22: str = "0.6405") -> str:
    return SCRIPT.replace("{o22}", o22)


def test_the_literals_are_the_page_line_for_line():
    text = string_lines(page())
    assert text is not None and text.count("\n") == page().count("\n")
    lines = text.split("\n")
    assert lines[line_of(page(), "scores = Q @ K.T") - 1] == "scores = Q @ K.T = [[2, 1],"
    assert lines[0] == "" and "def build" not in text          # the code around the literals is blanked


def test_a_right_page_in_a_script_is_checked_and_clean():
    from mha.check import check_document
    report = check_document(page(), fmt="py")
    assert report.errors == [] and report.n_numbers >= 12


@pytest.mark.parametrize("right,slipped", [("[[1.1547, 0.5774]", "[[1.1547, 0.5477]"),
                                           ("[[0.6405, 0.3595],", "[[0.6045, 0.3595],")])
def test_a_slip_in_a_literal_is_found_on_its_line(right, slipped):
    text = page().replace(right, slipped, 1)
    got = error_places(text, fmt="py")
    assert len(got) == 1 and got[0][0] == line_of(text, slipped)


def test_the_output_row_is_judged():
    text = page("0.6450")
    assert error_places(text, fmt="py") == [(line_of(text, "0.6450"), "0.6450")]


def test_a_script_of_messages_stays_a_script():
    messages = "\n".join(f"print('step {k}: done\\n')" for k in range(8))
    assert string_lines(messages) is None
