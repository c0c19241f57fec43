"""A dot product written out whose result the line's own remark says is already scaled: `12*30 + 21*14 + 8*9 +
5*6 = 378.0` (after /√d_k).  The terms add up to 756, so the result was "an arithmetic slip" (a page of integer
notes in t230a).  A remark right after the result that says it is divided by a root (after /√d_k, scaled) makes
the line the sum over √k, for the whole k that fits (claims/conventions.py `scaled_after`).  A line without the
remark, or a result that is no sum over a root, is still a slip.  My own numbers."""

from check_helpers import error_findings


def _page(first="378.0", remark=" (after /√d_k)"):
    return "\n".join(["# Scores by hand", "", "With $d_k = 4$:", "",
                      f"- With k1: `12*30 + 21*14 + 8*9 + 5*6 = {first}`{remark}",
                      "- With k2: `12*11 + 21*10 + 8*25 + 5*4 = 562`", ""])


def _errors(text):
    return error_findings(text, "md")


def test_a_result_the_remark_says_is_scaled_holds():
    assert [f.line for f in _errors(_page())] == []


def test_without_the_remark_or_off_the_root_it_is_a_slip():
    assert [f.printed for f in _errors(_page(remark=""))] == ["378.0"]
    assert [f.printed for f in _errors(_page(first="379.0"))] == ["379.0"]
