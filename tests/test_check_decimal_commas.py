"""Decimal commas on pages that write few of them: the reading of a lone `d,ddd` after an equals sign."""

from mha.check import check_document


def test_a_lone_comma_after_a_root_is_a_decimal_comma():
    """`√3 ≈ 1,732` on a page that writes no other decimal comma (a Portuguese lesson) was read as 1732 and would be
    an arithmetic slip; the arithmetic on its left decides the reading: 1.732 here, 1024 for `2^10 = 1,024`."""
    page = "# Escala\n\nDivide-se cada valor por √dₖ, com dₖ = 3:\n\n`√3 ≈ {n}`\n"
    assert not check_document(page.format(n="1,732"), fmt="md").findings
    r = check_document(page.format(n="1,738"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "1.738")], [f.describe() for f in r.errors]
    from mha.check.readers.decimalcomma import _thousands
    assert _thousands("√3 ≈ 1,732") == "√3 ≈ 1.732" and _thousands("2^10 = 1,024") == "2^10 = 1024 "
    assert _thousands("e^7 = 1,097") == "e^7 = 1097 "
