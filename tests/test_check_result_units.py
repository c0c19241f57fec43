"""A product's result written in a larger unit (t220e, a LaTeX textbook chapter: `$2 \\times 512 \\times 64 \\times 2 =
131$ KB (FP16) and ... $2 \\times 512 \\times 512 \\times 64 = 67$ MFLOPs`).  131 KB for 131,072 bytes was called a
slip (a whole number in that unit stands for its unit), and the 67 was compared with 33,554,432 as if no unit were
written.  The first holds now; the second is judged in millions, which is what makes it wrong
(claims/setequal.py `written_unit`).  My own sizes."""

import pytest

from check_helpers import error_places, line_of

LINE = "A tile of $3 \\times 256 \\times 32 \\times 2 = {size}$ KB and $2 \\times 256 \\times 256 \\times 32 = {flops}$ " \
       "MFLOPs of work.\n"


@pytest.mark.parametrize("fmt", ["tex", "md"])
def test_results_in_their_units_hold(fmt):
    assert error_places(LINE.format(size="49", flops="4.19"), fmt=fmt) == []


@pytest.mark.parametrize("fmt", ["tex", "md"])
def test_a_result_wrong_in_its_unit_is_found(fmt):
    from mha.check import check_document
    text = LINE.format(size="49", flops="8.4")
    errs = [f for f in check_document(text, fmt=fmt).findings if f.severity == "error"]
    assert [(f.line, f.printed) for f in errs] == [(line_of(text, "MFLOPs"), "8.4")]
    assert "4.194 MFLOPs" in errs[0].cause and abs(errs[0].exact - 4.194304) < 1e-9


def test_a_binary_unit_is_judged_in_powers_of_two():
    """`= 2.5` MiB for 2,621,440 bytes holds; `= 3.5` MiB for it is wrong in that unit (2.5)."""
    from mha.check import check_document
    line = "The cache holds $2 \\times 5 \\times 256 \\times 1024 = {v}$ MiB of keys.\n"
    assert error_places(line.format(v="2.5"), fmt="tex") == []
    errs = [f for f in check_document(line.format(v="3.5"), fmt="tex").findings if f.severity == "error"]
    assert len(errs) == 1 and abs(errs[0].exact - 2.5) < 1e-9
