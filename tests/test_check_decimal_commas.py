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


def test_thousands_after_a_tex_product_are_thousands():
    """`$512 \\times 512 = 262,144$` (a parameter count in a Chinese homework): only the factor after `\\times` was
    taken for the left side, and 512 put 262.144 nearer than 262144, so each count became a slip (five false
    findings on one page).  The whole left side decides; a wrong count is still found."""
    page = ("# 参数量\n\n$d = 512$ 时：\n\n- $W_Q$: $512 \\times 512 = {a}$\n- $W_K$: $512 \\times 512 = 262,144$\n"
            "- 合计: $2 \\cdot 262,144 = 524,288$\n")
    r = check_document(page.format(a="262,144"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(page.format(a="262,244"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "262244")], [f.describe() for f in r.errors]
    from mha.check.readers.decimalcomma import _thousands
    assert _thousands("$512 \\times 512 = 262,144$") == "$512 \\times 512 = 262144 $"


def test_decimal_commas_in_a_text_fence_and_an_exponent():
    """A Spanish lesson that works its numbers in ```text fences (`Q·K₂ = 1,0·0,9 + 0,0·0,1 = 0,90`,
    `e^{0,707} = 2,028`): a fence marked as text is prose for the decimal commas, and an exponent's braces hold a
    number, not an index; a slip in either is found."""
    page = ("# Atención\n\nTres claves, `d_k = 2`.\n\n```text\nQ·K₀ = 1,0·1,0 + 0,0·0,0 = 1,00\n"
            "Q·K₂ = 1,0·0,9 + 0,0·0,1 = {dot}\n√2 = 1,414\n```\n\nLuego $e^{{0,707}} = {exp}$.\n\n"
            "```python\nx = [0,5]\n```\n")
    assert not check_document(page.format(dot="0,90", exp="2,028"), fmt="md").errors
    for dot, exp, line in (("0,80", "2,028", 7), ("0,90", "2,038", 11)):
        r = check_document(page.format(dot=dot, exp=exp), fmt="md")
        assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def test_a_text_fence_of_printed_points_keeps_them_on_a_decimal_comma_page():
    """A French lesson writes 0,5 in its prose and shows its program's output in a ```text fence, with points:
    `1.255` there is one and a quarter, not 1255 (three false findings when every text fence was read as prose)."""
    page = ("# Attention\n\nUn poids de 0,5 ; un autre de 0,25 ; la somme 0,75 ; puis 1,0 et 0,0.\n\n"
            "```text\n[[1.    0.   ]\n [1.255 0.752]]\n```\n")
    from mha.check.readers.decimalcomma import decimal_points
    assert "[1.255 0.752]" in decimal_points(page, "md")
    assert "0.75" in decimal_points(page, "md")
