"""Arithmetic said in words, made the symbols a reader takes it for: "the square root of 64, which is 8" is
"√64 = 8"; "64 的平方根是 8" too.  The text keeps its length (the rest of the span becomes spaces), so every
number keeps its line and column."""

from __future__ import annotations

import re

_NUM = r"(\d+(?:\.\d+)?)"
_ROOT_EN = re.compile(r"(?i)\b(?:the\s+)?square\s+root\s+of\s+" + _NUM +
                      r"\s*,?\s*(?:\(\s*)?(?:which\s+is|that\s+is|is|equals|gives(?:\s+us)?|comes\s+to)\s+"
                      r"(about\s+|approximately\s+|roughly\s+|around\s+|~\s*|≈\s*)?" + _NUM + r"(?![\d.]\d)")
_ROOT_ZH = re.compile(r"" + _NUM + r"\s*的平方根(?:是|为|等于|=)\s*(约|大约|≈)?\s*" + _NUM + r"(?![\d.]\d)")


def worded_roots(text: str) -> str:
    """The text with each worded square root written as √n = m (≈ where the words say about)."""
    if "root" not in text and "平方根" not in text:
        return text
    for pattern in (_ROOT_EN, _ROOT_ZH):
        text = pattern.sub(_symbols, text)
    return text


def _symbols(m: re.Match) -> str:
    n, approx, root = m.group(1), m.group(2), m.group(3)
    said = f"√{n} {'≈' if approx else '='} {root}"
    span = m.group(0)
    if len(said) > len(span) or "\n" in span:
        return span
    return said + " " * (len(span) - len(said))
