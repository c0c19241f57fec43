"""Arithmetic said in words, made the symbols a reader takes it for: "the square root of 64, which is 8" is
"√64 = 8"; "64 的平方根是 8" too.  The text keeps its length (the rest of the span becomes spaces), so every
number keeps its line and column."""

from __future__ import annotations

import re

from .. import labels as lb

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


# the words before a bare vector in math end with a copula: "the weights are approximately $(0.42, 0.16, 0.42)$",
# "数值权重约为 $(…)$"; the name before them is the vector's label
_COPULA = re.compile(r"(?:\s*(?:\b(?:are|is|were|was|becomes?|equals?|approximately|about|roughly|around|then)\b|"
                     r"≈|=|:|：|约为|约|大约|为|是|分别为|分别是|等于))+\s*$", re.I)
# a verb of giving, then the name of what is given, right before the vector: "softmax gives the weights $(…)$",
# "Softmax cho trọng số", "donne les poids", "ergibt die Gewichte", "得到权重"
_GIVES = re.compile(r"(?i)(?:\b(?:gives?|yields?|produces?|returns?|cho|donne|ergibt|liefert|da|dà|daje|даёт|дает)"
                    r"\s+(?:us\s+)?(?:the|les|die|los|las|le|i|gli)?\s*|得到|给出)"
                    r"([^\W\d_]+(?:\s[^\W\d_]+)?)\s*$")
_BARE_VECTOR = re.compile(r"\s*[(\[]\s*-?\d[-\d.,\s]*[)\]]\s*")
# ... with TeX's spaces between its entries (`(0.401,\, 0.198,\, 0.401)`): named only by a verb of giving (a row
# written so after "Row 1:" is read as a row of what the step names, as before)
_SPACED_VECTOR = re.compile(r"\s*[(\[]\s*-?\d(?:[-\d.,\s]|\\[,;:! ])*[)\]]\s*")
# a stage written as nothing but its entries between commas, three or more: "Dot products: $1, 0, 0.5$"
_BARE_LIST = re.compile(r"\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){2,}\s*")
# "divided by $\sqrt 2$: $0.71, 0, 0.35$": the words before the root name the list after it
_DIVIDED = re.compile(r"(?i)(?:\b(?:divided|scaled|divide|scale)\s+(?:by|with)|除以|缩放)\s*$")
_ROOT_MATH = re.compile(r"\s*(?:\\sqrt\s*\{?\s*\w+\s*\}?|\d+(?:\.\d+)?)\s*")
# a sentence that opens with the name and goes straight on to the list: "Exponentials $2.72, 2.72, 7.39$"
_TELEGRAPHIC = re.compile(r"(?:(?:^|\*\*\s*)([A-Z][a-z]+(?:\s[a-z]+)?)|[.;:!?,]\s+([A-Za-z][a-z]+(?:\s[a-z]+)?))\s+$")
_NAMED = {"A", "QKt", "S", "E", "O", "O_concat", "Y"}


def bare_list(content: str) -> bool:
    """Is the math nothing but three or more numbers between commas (`1, 0, 0.5`)?"""
    return bool(_BARE_LIST.fullmatch(content))


def named_by_words(said: str, content: str, before: tuple[str, str] = ("", "")) -> str | None:
    """The name the words just before a bare vector in math give it ("weights", "权重", "scores"), when the math is
    nothing but that vector (or a bare list between commas) and the words end in a copula; None otherwise.  A
    Chinese name is the shortest tail of its run of characters that names a quantity (数值权重: 权重, the weights,
    not 值, the values).  `before` is the words and the math just before `said`: a list after "divided by
    $\\sqrt 2$:" is the scaled scores."""
    g = _GIVES.search(said)
    if not (_BARE_VECTOR.fullmatch(content) or bare_list(content) or g and _SPACED_VECTOR.fullmatch(content)):
        return None
    m = _COPULA.search(said)
    if g and (not m or not m.group(0).strip()):
        head = g.group(1)                            # "Softmax gives the weights $(0.40, 0.20, 0.40)$"
    elif (not m or not m.group(0).strip()) and bare_list(content) and _TELEGRAPHIC.search(said):
        t = _TELEGRAPHIC.search(said)                # "… sum 12.83. Weights $0.21, 0.21, 0.58$"
        head = t.group(1) or t.group(2)
    elif not m or not m.group(0).strip():
        return None
    else:
        head = said[:m.start()].rstrip()
    if not head.strip(" ;,") and bare_list(content) and _DIVIDED.search(before[0]) and \
            _ROOT_MATH.fullmatch(before[1]):
        return "scaled"
    run = re.search(r"[\u4e00-\u9fff]+$", head)
    if run:
        tails = [run.group(0)[-n:] for n in range(2, min(len(run.group(0)), 6) + 1)]
    else:
        words = re.findall(r"[^\W\d_]+", head)[-2:]           # (trọng số, веса: letters of any script)
        tails = [" ".join(words[-k:]) for k in (1, 2) if len(words) >= k]
    for name in tails:
        r = lb.parse_label(name)
        if r is not None:
            return name if set(r.nodes) <= _NAMED else None
    return None
