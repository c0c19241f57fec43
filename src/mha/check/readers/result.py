"""The result of a worked line, written with something after it that is no part of the number:

    Dividing by √128 ≈ 11.3 keeps values in range        (words)
    = 10.84 + 42.42 + 16.74 \\approx 70.0 \\text{ kg}     (a unit)
    6.7 + 0 + 0.4 = **7.1**                               (Markdown emphasis)
    weight = 3.32 / 10.73 = 0.31 ($e^{1.2} = 3.32$)       (a remark in parentheses, its math read on its own)
    8/12 = 67%, 3/12 = 25%                                (a share written as a percent)
    1 / 1.4142 ≈ 0.7071, and 0 stays 0                   (a comma, and the sentence goes on in words)
    e^1.414 / (e^1.414 + 1) = 0.804,   0.196             (the step's other values after a comma and a space;
                                                          589,824 is one number grouped in thousands)

A reader takes the number as what the arithmetic before it gives; the statement reader types such a part as a
label (words), so the chain has no result to judge.  `worked_result` reads the number, only right after arithmetic
(an expression with an operator and no symbol) and a relation = or ≈: a plain "d_k = 64 dimensions" stays a label."""

from __future__ import annotations

import math
import re

from .. import numbers as nb
from ..objects import ExprPart, LabelPart, Part
from .tokens import Tok, flat_text

_EMPHASIS = ("*", "_")
# words that make the number an operand, not the result ("= 3 times 4", "= 6 divided by 2"), or scale it
# ("= 131 K", "= 1.2 million", "= 40 percent"): the number alone is not what the arithmetic gives
_OPERAND_WORDS = re.compile(r"(?i)times|x|divided|multiplied|plus|minus|squared|cubed|over|to|of|mal|"
                            r"percent|pct|bn|mn|" + nb.MAGNITUDE_WORDS + r"|"
                            r"[kKMGTPE]i?[Bb](?:ytes?|its?)?|[kKMGTP]?FLOPS?|[kKMGTP]?FLOPs|[kKMGTP]?params?|"
                            r"[乘除加减万亿千百兆倍].*")


# a unit of bytes after a size: what the arithmetic counted, in a larger unit
_BYTE_UNIT = re.compile(r"[kKMGTP]i?B")
# a unit of time glued to a result (`= 17ms`, `= 0.91s`): the quotient taken as seconds (claims/setequal.py)
_TIME_UNITS = frozenset({"ms", "s", "us", "μs", "µs", "ns", "sec"})
# a magnitude glued to a result (`≈ 1.57M`, `= 7B`, `≈ 590K`)
_GLUED_MAGNITUDE = frozenset({"K", "k", "M", "B", "T"})


def worked_result(prev: Part, rel: str, toks: list[Tok], line_of) -> ExprPart | None:
    """The number at the start of toks as the result of the arithmetic prev, when what follows it is words, a
    unit, emphasis or a remark in parentheses; None otherwise."""
    if rel not in ("=", "≈", "\\approx", "≃") or not isinstance(prev, ExprPart) or not _arithmetic(prev.expr):
        return None
    t = list(toks)
    if t and t[0].kind == "GROUP" and t[0].args and isinstance(t[0].args[0], list) and \
            [x.kind for x in t[0].args[0]] in (["NUM"], ["OP", "NUM"]):
        t = list(t[0].args[0]) + t[1:]          # \mathbf{0.1978} \text{ (19.8% ...)}: the number in its group
    lead = 0
    while lead < len(t) and t[lead].kind == "OP" and t[lead].text in _EMPHASIS + ("{",):
        lead += 1                 # **7.1**, and \mathbf{0.1978} (a group left in braces)
    k = lead
    sign = ""
    if k < len(t) and t[k].kind == "OP" and t[k].text in ("-", "−"):
        sign, k = "-", k + 1
    glued = _glued_number(t, k)
    scale = None
    if glued is not None:
        num, k = glued           # `= 31GB`, `= 5.86x faster`: the number glued to a unit or to a ratio's x
        if t[k].text == "x":
            k += 1
        elif t[k].text in _GLUED_MAGNITUDE:
            scale, k = t[k].text, k + 1      # `≈ 1.57M`: millions (readers/magnitude.py for `1.57 M`)
    elif k >= len(t) or t[k].kind != "NUM":
        return None
    else:
        num = t[k]
        k += 1
    sci = _times_power_of_ten(t, k, num) if glued is None else None
    if sci is not None:
        num, k = sci             # `= 1.6 × 10^{10} \text{ FLOPs}`: the number in scientific form, then its unit
        if k < len(t) and t[k].kind in ("TEXT", "ID") and _COUNTED_UNIT.fullmatch(t[k].text):
            k += 1
    pct = k < len(t) and t[k].kind == "OP" and t[k].text == "%"
    k += pct
    close = 0
    while k < len(t) and t[k].kind == "OP" and t[k].text in _EMPHASIS + ("}",):
        close, k = close + 1, k + 1
    sized = not pct and (k < len(t) - 1 or glued is not None) and k < len(t) and t[k].kind == "ID" and \
        _BYTE_UNIT.fullmatch(t[k].text) is not None or \
        not pct and k < len(t) and t[k].kind == "ID" and not t[k].space and t[k].text in _TIME_UNITS
    k += sized                 # "≈ 84 GB（远超…）", "= 5.4 GB (one 4K sequence)": a size, then a remark; the unit
    #                            is read from the line where the size is judged (claims/setequal.written_unit)
    rest = t[k:-1] if glued is not None and t[-1].kind == "OP" and t[-1].text in (".", "。") else t[k:]
    ratio = glued is not None and t[k - 1].text == "x" and all(x.kind in ("ID", "TEXT") for x in rest)
    if close != lead or not (ratio or _remark(rest)) or (k == len(t) and not lead and not pct and glued is None and
                                                                sci is None):
        return None
    try:
        value = nb.evaluate(prev.expr).value
    except (ArithmeticError, ValueError, ZeroDivisionError, OverflowError):
        return None
    line = line_of(num.pos)
    text = sign + num.text
    if pct:
        # a share (0.25 = 25%), or a ratio over one (2.0 / 1.0 = 200%); a value already in percent (50 × 2 = 100%)
        # is read as written: whichever reading lies nearer the arithmetic before it
        n = nb.percent(text + "%", line)
        if abs(value) > 1.0 + 1e-9 and abs(n.value - value) >= abs(n.value * 100 - value):
            n = nb.Num.parse(text, line)
    else:
        n = nb.Num.parse(text, line)
    f = nb.MAGNITUDE.get(scale or "", 1.0)
    if scale is not None and value and n.value and abs(math.log(abs(n.value * f / value))) < \
            abs(math.log(abs(n.value / value))):
        # (the reading the arithmetic lies nearer: `= 8B` after 2 × 4 is eight bytes, not eight billion; a whole
        # count of millions, `786K`, stands for 785.5 K to 786.5 K)
        half = 0.5 if n.decimals is None else 0.0
        n = nb.Num(n.value * f, f"{text} {scale}", (n.lo - half) * f, (n.hi + half) * f, n.line, n.decimals or 0)
    return ExprPart(nb.Lit(n), flat_text(toks))


def _glued_number(t: list[Tok], k: int) -> tuple[Tok, int] | None:
    """A number the lexer broke up because a unit of bytes or time, or a ratio's x, is glued to it (`31GB`, `17ms`,
    `5.86x`): its
    token and the index of what is glued to it; None for anything else."""
    j, text = k, ""
    while j < len(t) and t[j].kind in ("NUM", "OP") and re.fullmatch(r"[\d.]+", t[j].text) and \
            (j == k or not t[j].space):
        text, j = text + t[j].text, j + 1
    if j == k + 1 and t[k].kind == "NUM" or not re.fullmatch(r"\d+(?:\.\d+)?", text) or j >= len(t) or \
            t[j].space or t[j].kind != "ID" or not (_BYTE_UNIT.fullmatch(t[j].text) or t[j].text == "x" or
                                                    t[j].text in _TIME_UNITS or t[j].text in _GLUED_MAGNITUDE):
        return None
    if j + 1 < len(t) and not t[j + 1].space and t[j + 1].kind in ("ID", "NUM"):
        return None               # (`2x4`, `3xb`: no ratio)
    return Tok("NUM", text, t[k].pos, num=nb.Num.parse(text), space=t[k].space, end=t[j - 1].end), j


# what a number in scientific form counts, written after it (a plain count, no prefix that scales it)
_COUNTED_UNIT = re.compile(r"\s*(?:FLOPs?|FLOP|params|parameters|bytes|tokens|operations)\s*")


def _times_power_of_ten(t: list[Tok], k: int, num: Tok) -> tuple[Tok, int] | None:
    """`1.6 × 10^{10}` after the number token: one number (1.6e10, to the precision of its mantissa) and the index
    after it; None for anything else."""
    if not (k + 3 < len(t) and t[k].kind == "OP" and t[k].text in ("*", "×", "·") and t[k + 1].kind == "NUM" and
            t[k + 1].text == "10" and t[k + 2].kind == "OP" and t[k + 2].text == "^") or num.num is None:
        return None
    e = t[k + 3]
    inner = e.args[0] if e.kind == "GROUP" and e.args and isinstance(e.args[0], list) else [e]
    sign = "-" if [x.kind for x in inner] == ["OP", "NUM"] and inner[0].text in ("-", "−") else ""
    digits = inner[-1] if [x.kind for x in inner] in (["NUM"], ["OP", "NUM"]) and (len(inner) == 1 or sign) else None
    if digits is None or not re.fullmatch(r"\d{1,3}", digits.text) or "e" in num.text.lower():
        return None
    text = f"{num.text}e{sign}{digits.text}"               # (a finding quotes the whole line as written)
    return Tok("NUM", text, num.pos, num=nb.Num.parse(text), space=num.space, end=e.end), k + 4


def _arithmetic(e) -> bool:
    return isinstance(e, nb.Op) and not nb.has_symbols(e) and len(nb.leaves(e)) >= 1 and \
        not nb.is_plain_number(e)


def _remark(rest: list[Tok]) -> bool:
    """Nothing, a remark in parentheses (closed at the end), or words or a unit (never an operand)."""
    if not rest:
        return True
    first = rest[0]
    if first.kind == "OP" and first.text in ("←", "⟵", "⇐"):
        return True               # "= 64 GB ← exceeds A100!": a remark pointing back at the value
    if first.kind == "OP" and first.text in (",", "，") and _numbers_only(rest[1:]) and rest[1].space:
        return True               # "e^1.414 / (e^1.414 + 1) = 0.804,   0.196": the step's other values after it
    if first.kind == "OP" and first.text in (",", "，", ";", "；") and len(rest) > 1:
        return _remark(rest[1:]) and rest[1].kind in ("TEXT", "ID")   # "≈ 0.7071, and 0 stays 0": the sentence goes on
    if first.kind == "OP" and first.text in ("(", "（"):
        return rest[-1].kind == "OP" and rest[-1].text in (")", "）")
    if first.kind == "TEXT" and re.fullmatch(r"\s*[(（].*[)）]\s*", first.text) and len(rest) == 1:
        return True               # \text{ (19.8% to "The")}: a remark in parentheses, set in text
    if first.kind in ("TEXT", "ID"):
        words = " ".join(t.text for t in rest[:2]).strip().split(" ")
        word = words[0]
        if word.lower() == "per":
            return len(words) > 1 and words[1].lower() not in ("cent", "mille")   # "= 62 per head"; "per cent"
        return len(word) >= 2 and bool(re.fullmatch(r"[^\W\d_]+", word)) and not _OPERAND_WORDS.fullmatch(word)
    return False


def as_result(typed: list[Part], parts: list[Part], rel: str, toks: list[Tok], line_of) -> list[Part]:
    """typed, or the worked result read from it when it is one label after arithmetic."""
    if len(typed) == 1 and isinstance(typed[0], LabelPart) and parts and typed[0].operands is None:
        got = worked_result(parts[-1], rel, toks, line_of)
        if got is not None:
            return [got]
    return typed


def _numbers_only(rest: list[Tok]) -> bool:
    """Nothing but numbers between commas (a sign allowed before each): "0.196", "0.196, 0.000"."""
    want_num = True
    for k, t in enumerate(rest):
        if want_num and t.kind == "OP" and t.text in ("-", "−") and k + 1 < len(rest) and rest[k + 1].kind == "NUM":
            continue
        if want_num != (t.kind == "NUM") or (not want_num and t.text not in (",", "，")):
            return False
        want_num = not want_num
    return bool(rest) and not want_num
