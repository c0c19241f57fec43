"""Arithmetic with words around it, in two shapes an outside trial's pages wrote (t235a):

    Score(tea→cup) = Q_tea · K_cup                We divide by √d_k (e.g., √16 = 4) to keep the scores small.
      = (0.5×0.2) + (0.3×0.6) + (0.8×0.1)
      = 0.10 + 0.18 + 0.08
      = 0.36   ← a middling match

A remark after a left arrow made the last line of the derivation words, so its result was never judged; and a
statement in parentheses ("(e.g., √16 = 4)") was not read at all.  The remark is now no part of the value
(`readers/drawn.py`, `_ARROW_REMARK`), and an aside with a number on its left and one number on its right is a
statement of its own (`_ASIDE`).  My own numbers."""

from check_helpers import error_findings, line_of


def _derivation(result="0.36"):
    return "\n".join(["# Scores by hand", "", "```", "Score(tea→cup) = Q_tea · K_cup",
                      "  = (0.5×0.2) + (0.3×0.6) + (0.8×0.1)", "  = 0.10 + 0.18 + 0.08",
                      f"  = {result}   ← a middling match", "```", ""])


def _aside(root="4"):
    return f"# Why scale\n\nWe divide by √d_k (e.g., √16 = {root}) to keep the scores small.\n"


def test_right_derivation_and_aside_hold():
    assert error_findings(_derivation()) == []
    assert error_findings(_aside()) == []


def test_a_slipped_result_before_a_remark_is_found():
    page = _derivation("0.39")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "← a middling"), "0.39")], [f.message for f in errs]


def test_a_slipped_root_in_an_aside_is_found():
    page = _aside("6")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(3, "6")], [f.message for f in errs]


def test_an_aside_of_names_only_is_no_claim():
    # "(d_k = 64)" names a size; its left side holds no number
    assert error_findings("# Sizes\n\nWith the head width (d_k = 64) the scores stay small; 2 + 2 = 4.\n") == []


def test_keyword_arguments_in_parentheses_are_no_aside():
    from mha.check.readers.drawn import _ASIDE
    assert not _ASIDE.search("ax.scatter(pos[0], pos[1], c='green', s=100, alpha=0.6, zorder=2)")
    assert not _ASIDE.search("plt.axhline(0, color='k', alpha=0.18)")
    assert _ASIDE.search("by √d_k (e.g., √16 = 4) to keep")
