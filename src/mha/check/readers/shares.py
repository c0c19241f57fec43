"""Numbers in prose that no label claims, kept in reading order for the claims that give them their identity
themselves: "Z ≈ 30.0 + 16.4 + 8.2 = 54.6, so the token attends ≈ 0.55 to ..., 0.30 to ... and 0.15 to ..."
(claims/shares.py).  Each is a Hint("prose_number", (column, Num)); nothing else reads that kind."""

from __future__ import annotations

import re

from ..numbers import Lit, Num, Op
from ..objects import Chain, ExprPart, Hint, LabelPart, Place
from .common import copy_context

_NUMBER = re.compile(r"(?<![\w.\[])(-?\d+\.\d+|\d+)(?![\w\]])(?!\.\d)(\s*%)?")
# 2.98×10^3, 4.98 \times 10^{-2}, 1.5e-3: one number, its precision that of its mantissa
_SCI = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)\s*(?:×|\\times|\\cdot|·)\s*10\s*\^\s*\{?\s*([-−+]?\d+)\s*\}?"
                  r"|(?<![\w.])(-?\d+(?:\.\d+)?[eE][-+]?\d+)(?![\w.])")


# "a variance of 64, so a standard deviation of about 8", "方差 64，对应的标准差约为 8": no number between them
_SPREAD = re.compile(r"(?:variance|方差)[^\d。.;；!?]{0,12}?(\d+(?:\.\d+)?)(?!\d|\.\d)"
                     r"[^\d。;；!?]{0,30}?"
                     r"(?:standard deviation|标准差)[^\d。;；!?\\√{(=]{0,12}?(\d+(?:\.\d+)?)(?!\d|\.\d)", re.I)
# (a root or a formula between the word and the number, "standard deviation $\sqrt{16} = 4$", works it out itself)


def prose_number_hints(b: "Builder", line: str, place: Place) -> None:
    _spread(b, line, place)
    if not re.search(r"\d\.\d|\d\s*%", line):
        return                                  # shares are written with decimals, or as percents
    for m in _SCI.finditer(line):
        text = m.group(3) or f"{m.group(1)}×10^{m.group(2).replace('−', '-').lstrip('+')}"
        try:
            num = Num.parse(m.group(3) or f"{m.group(1)}e{m.group(2).replace('−', '-')}", place.line)
        except ValueError:
            continue
        num = Num(num.value, text, num.lo, num.hi, num.line, num.decimals)
        b.doc.hints.append(Hint("prose_number", (m.start(), num, False), place, ""))
        line = line[:m.start()] + " " * (m.end() - m.start()) + line[m.end():]
    for m in _NUMBER.finditer(line):
        try:
            num = Num.parse(m.group(1), place.line)
        except ValueError:
            continue
        if m.group(2) and num.decimals is None:     # "53%" is a share rounded to a whole percent
            num = Num(num.value, num.text, num.value - 0.5, num.value + 0.5, num.line, 0)
        b.doc.hints.append(Hint("prose_number", (m.start(), num, bool(m.group(2))), place, ""))


def said_in_order(hints: list[Hint]) -> list[tuple[tuple[int, int, int], Num, bool]]:
    """((cell, line, column), number, percent) of every prose number, in reading order; a line read twice, once."""
    seen = {}
    for h in hints:
        if h.kind == "prose_number":
            key = (h.place.cell or 0, h.place.line, h.value[0])
            seen.setdefault(key, (key, h.value[1], h.value[2]))
    return [seen[k] for k in sorted(seen)]


def _spread(b: "Builder", line: str, place: Place) -> None:
    """A variance and the standard deviation the same sentence gives for it: the arithmetic √variance ≈ std."""
    for m in _SPREAD.finditer(line):
        try:
            var, std = Num.parse(m.group(1), place.line), Num.parse(m.group(2), place.line)
        except ValueError:
            continue
        b.doc.chains.append(Chain([LabelPart("standard deviation"), ExprPart(Op("sqrt", (Lit(var),)), f"√{var.text}"),
                                   ExprPart(Lit(std), std.text)], ["=", "≈"], place, m.group(0)[:120],
                                  copy_context(b.ctx)))
