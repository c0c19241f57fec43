"""Decimal points followed by a space, `0. 707` and `e^{0. 707} \\approx 2. 028`, as some exports to Markdown leave
every decimal of a page: read as 0.707 and 2.028 before any reader sees the text.  Left as they are, each such
number is two (0 and 707), or none, and the page's worked numbers are skipped without a word.

Only a page that writes them so throughout is read this way: at least MIN_SPACED such numbers on lines of
mathematics (a backslash, `&`, `=`, `$`, `^` or a bracket on the line), and more of them there than decimals
written the usual way.  Only those lines change, outside code, and each keeps its length (the space moves after
the number), so that columns and places stay where they were.  A numbered list ("1. 2 heads") is prose, not a
line of mathematics, and is left alone.
"""

from __future__ import annotations

import re

from .decimalcomma import _prose

MIN_SPACED = 5

_SPACED = re.compile(r"(?<![\w.])(\d+)\. (\d+)(?![\w.])")
_POINT = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
_MATH_LINE = re.compile(r"[\\&=$^\[\]]")


def spaced_points(text: str, fmt: str) -> str:
    """The text with `0. 707` read as `0.707 ` on its lines of mathematics, when the page writes its decimals so."""
    if fmt == "ipynb" or ". " not in text:
        return text
    spans = _prose(text, fmt)
    lines = [(a, b) for s, e in spans for a, b in _lines(text, s, e) if _MATH_LINE.search(text[a:b])]
    spaced = sum(len(_SPACED.findall(text[a:b])) for a, b in lines)
    plain = sum(len(_POINT.findall(text[a:b])) for a, b in lines)
    if spaced < MIN_SPACED or spaced <= plain:
        return text
    out, at = [], 0
    for a, b in lines:
        out.append(text[at:a])
        out.append(_SPACED.sub(lambda m: f"{m.group(1)}.{m.group(2)} ", text[a:b]))
        at = b
    out.append(text[at:])
    return "".join(out)


def _lines(text: str, s: int, e: int):
    """(start, end) of each line within text[s:e]."""
    a = s
    while a < e:
        b = text.find("\n", a, e)
        b = e if b < 0 else b
        yield a, b
        a = b + 1


# 16\,640 and 49\,984 (TeX's thin space between groups of three), 16 640 with a Unicode thin or narrow no-break
# space: one number each, read as 16640 with the spaces moved after it (the line keeps its length).  TeX's `{,}`
# is decimalcomma.decimal_points's to read: a decimal comma or a thousands one, as the document writes them
# (after `\,` a group starts a number of its own: `65\,536\,/\,8\,192` is 65536 / 8192)
_THIN_THOUSANDS = re.compile(r"(?<![\d.}])(?<![^\\],)([1-9]\d{0,2})((?:(?:\\,|[\u2009\u202f])\d{3})+)(?!\d)")


# \frac{485,165,195}{485,187,221}: a TeX argument that holds one number grouped by plain commas
_BRACED_GROUPS = re.compile(r"(?<=\{)([1-9]\d{0,2})((?:,\d{3})+)(?=\})")


def thin_thousands(text: str) -> str:
    """The text with digits grouped by thin spaces (or, alone in a TeX argument, by commas) joined into one
    number."""
    if "{" in text and "," in text:
        def joined(m: re.Match) -> str:
            if text[max(0, m.start() - 2):m.start() - 1] in ("^", "_"):
                return m.group(0)        # ℝ^{3,512}, x_{1,128}: a shape or two indices, not a number
            return m.group(1) + m.group(2).replace(",", "") + " " * m.group(2).count(",")
        text = _BRACED_GROUPS.sub(joined, text)
    if "\\," not in text and "\u2009" not in text and "\u202f" not in text:
        return text
    def join(m: re.Match) -> str:
        digits = re.sub(r"\\,|[\u2009\u202f]", "", m.group(2))
        return m.group(1) + digits + " " * (len(m.group(0)) - len(m.group(1)) - len(digits))
    return _THIN_THOUSANDS.sub(join, text)


# `2、1、0` in code type: a row of numbers parted by the ideographic enumeration comma, as Chinese prose lists them;
# `[1,0]、[0,2]` (one span) and `[10,0]`、`[0,10]` (a span each): rows listed the same way, one matrix
_N = r"[-−]?\d+(?:\.\d+)?"
_VEC = r"\[\s*" + _N + r"(?:\s*,\s*" + _N + r")*\s*\]"
_ENUMERATED = re.compile(r"`(\s*" + _N + r"(?:\s*、\s*" + _N + r")+\s*)`")
_ENUMERATED_ROWS = re.compile(r"`(\s*" + _VEC + r"(?:\s*、\s*" + _VEC + r")+\s*)`")
_ROW_SPANS = re.compile(r"`" + _VEC + r"`(?:、`" + _VEC + r"`)+")


def enumerated_rows(text: str) -> str:
    """The text with each run of numbers (or of bracketed rows) in code type parted by 、 written as a bracketed row
    (or matrix): `0.665、0.245` → [0.665,0.245], `[1,0]`、`[0,2]` → [[1,0],  [0,2]], each the same length, so
    every number keeps its place."""
    if "、" not in text:
        return text
    text = _ENUMERATED.sub(lambda m: "[" + m.group(1).replace("、", ",") + "]", text)
    text = _ENUMERATED_ROWS.sub(lambda m: "[" + m.group(1).replace("、", ",") + "]", text)
    return _ROW_SPANS.sub(lambda m: "[" + m.group(0)[1:-1].replace("`、`", ",  ") + "]", text)


# ③ right before a formula or a number: a marker that numbers a step (`③$0.731×4+0.269×10=5.614$`), no part of it;
# in Markdown it also hides the formula's opening $ (a $ after a letter or a digit opens nothing)
_CIRCLED_NUMBER = "[\u2460-\u2473\u24ea\u2776-\u277f]"
_CIRCLED = re.compile(_CIRCLED_NUMBER + r"(?=\s*[$\d])")


def circled_markers(text: str) -> str:
    """The text with each circled number before a formula or a number made a space (the same length)."""
    return _CIRCLED.sub(" ", text) if re.search(_CIRCLED_NUMBER, text) else text

