"""A value with words after it in one statement part: "[0.52, 0.09, 0.39]   (sum close to 1)" and, in prose,
"Q = [1, 2] and three keys".  The value is the array; the words are a remark or the sentence going on."""

from __future__ import annotations

import re
from typing import Callable

from ..objects import Array
from .tokens import Tok


def before_remark(array_at: Callable[[list[Tok]], Array | None], toks: list[Tok]) -> Array | None:
    """"[0.52, 0.09, 0.39]   (sum close to 1)" (array_at strips what it is given): a remark in words, in parentheses set apart by a space after the
    value, annotates it; the array is the value (an equation number "(3)" or an expression is no remark)."""
    if len(toks) < 4 or toks[-1].text != ")":
        return None
    depth = 0
    for k in range(len(toks) - 1, 0, -1):
        depth += (toks[k].text == ")") - (toks[k].text == "(")
        if depth == 0:
            break
    else:
        return None
    if toks[k].text != "(" or not toks[k].space or \
            not any(t.kind in ("ID", "TEXT") and (len(t.text) > 1 or not t.text.isascii()) for t in toks[k + 1:-1]):
        # (a word of one character is a word in Korean and Chinese: "(합 ~1.0)", "(和 ≈ 1)")
        return None
    return array_at(toks[:k])


def before_words(array_at: Callable[[list[Tok]], Array | None], toks: list[Tok], where: str) -> Array | None:
    """"Q = [1, 2] and three keys": in prose, a bracketed value closed and followed by words is the value
    (the sentence goes on; a name or an operator after it would make it a factor instead)."""
    if where not in ("prose", "comment") or len(toks) < 4 or toks[0].text != "[":
        return None
    depth = 0
    for k, t in enumerate(toks):
        depth += (t.text == "[") - (t.text == "]")
        if depth == 0:
            break
    else:
        return None
    rest = toks[k + 1:]
    # "# T=1.0: [0.651, 0.239, 0.088, 0.022]   standard": words set apart by a run of spaces remark on the value
    if rest and toks[k].end and rest[0].pos - toks[k].end >= 2 and all(t.kind in ("ID", "TEXT") for t in rest[:2]) \
            and not any(t.kind in ("REL", "NUM", "GROUP", "MATRIX") or t.text in "([=" for t in rest):
        return array_at(toks[:k + 1])
    if where != "prose":
        return None
    if _remark_group(rest):
        return array_at(toks[:k + 1])          # "scores [-1, 2] (sum 1) here", "[..] （合計 2.0）のとき": a remark
    if len(rest) > 1 and rest[0].kind == "OP" and rest[0].text in (",", "，"):
        if rest[1].kind in ("ID", "TEXT") and \
                re.fullmatch(r"[a-z][a-z-]+|[\u4e00-\u9fff\uac00-\ud7af]+", rest[1].text) and \
                not any(t.kind == "OP" and t.text in "([" for t in rest):
            return array_at(toks[:k + 1])     # "..., pulled towards v3": a comma, then the sentence in words
        rest = rest[1:]                       # "v3 = [1, 1], the output is ...": a comma, then the sentence
    if len(rest) > 1 and rest[0].kind == "OP" and rest[0].text in (".", "。") and rest[1].kind in ("ID", "TEXT") \
            and (rest[1].text[:1].isupper() or re.match(r"[\u4e00-\u9fff\uac00-\ud7af]", rest[1].text)):
        return array_at(toks[:k + 1])          # "...: [0.05, 0.89, 0.05]. Nearly all of it ...": the sentence ends
    if not rest or rest[0].kind not in ("ID", "TEXT") or \
            not re.fullmatch(r"(?:and|for|with|as|is|are|which|from|of|in|to|while|where|then|so|or|the|this|that|"
                             r"[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]+)", rest[0].text):
        return None
    return array_at(toks[:k + 1])


def _remark_group(rest: list[Tok]) -> bool:
    """Do the tokens after a value start with a remark in parentheses, set apart by a space: "(sum 2.0)",
    "（合計 2.0）" (a word in it; an equation number or an expression is no remark)?"""
    if len(rest) < 3 or rest[0].text != "(" or not rest[0].space:
        return False
    depth = 0
    for k, t in enumerate(rest):
        depth += (t.text == "(") - (t.text == ")")
        if depth == 0:
            return any(x.kind in ("ID", "TEXT") and (len(x.text) > 1 or not x.text.isascii()) for x in rest[1:k])
    return False
