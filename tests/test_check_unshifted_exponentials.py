"""`exp = [2.718, 2.718, 7.389]`: the exponentials of the scores as they are, without the row's maximum taken off
first, give the same weights; they are a convention, not a slip.  They were reported as "these are the values of
exp (without subtracting the row max)" on a second exam question whose caption reads `Softmax: exp = [...]`."""

from pathlib import Path

from mha.check import check_document

DOC = Path(__file__).parent / "check_clean" / "md_exam_second_question_new_width.md"


def _page(find: str = "", replace: str = "") -> str:
    text = DOC.read_text(encoding="utf-8").replace("**Softmax:** exp = ", "Softmax: exp = ")
    assert "Softmax: exp = [2.718, 2.718, 7.389]" in text
    return text.replace(find, replace) if find else text


def test_exponentials_without_the_row_max_hold():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.describe() for f in r.errors]


def test_a_slip_in_those_exponentials_is_still_found_on_their_line():
    r = check_document(_page("exp = [2.718, 2.718, 7.389]", "exp = [2.718, 2.781, 7.389]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(17, "2.781")]
