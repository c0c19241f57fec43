"""A row vector written in parentheses in TeX math: `\\tilde{s} = (1.41, 0.71, 2.12)`, `\\alpha = (0.28, 0.14, 0.58)`.

Square brackets make an array wherever they stand; parentheses are read as a vector only in math, only as a
part of their own after a relation (the whole side of an equation), and only with a decimal among two or more
plain numbers between commas: a pair of whole numbers in parentheses is as often an index or a shape, unless
it is the value of a token's vector (`q = (1, 1)`)."""

from __future__ import annotations

import re

from .. import numbers as nb
from ..objects import Array
from .common import Segment
from .tokens import Tok


_SPACING = re.compile(r"(?:\\[;,:!> ]|\\q?quad\b|\\(?:left|[bB]igg?l?)\b|~|\s)+$")   # (and \left( sizes)
_RELATIONS = ("=", "≈", "\\approx", "\\simeq", "≃")
# a token's query, key, value or input vector named right before "=": q = (1, 1), \mathbf{k}_2 = (0, 1), x_{3} = (2, 0)
# (its whole numbers are entries, not an index or a shape)
_TOKEN_VECTOR = re.compile(r"(?:^|[\s,;(])(?:\\(?:mathbf|vec|boldsymbol)\s*\{\s*)?(?:[qkvx]|(?P<big>[QKVX]))\s*\}?"
                           r"(?P<sub>_\{?\s*\w{1,3}\s*\}?)?\s*=$")


def math_tuple(toks: list[Tok], seg: Segment) -> Array | None:
    if toks and toks[-1].text in (".", ",") and len(toks) > 1 and toks[-2].text == ")":
        toks = toks[:-1]                      # "α_1 ≈ (0.401, 0.198, 0.401)." ends its sentence
    if seg.where != "math" or len(toks) < 5 or toks[0].text != "(" or toks[-1].text != ")":
        return None
    inner = toks[1:-1]
    row: list[nb.Num] = []
    k = 0
    while k < len(inner):
        sign = ""
        if inner[k].kind == "OP" and inner[k].text in ("-", "−"):
            sign, k = "-", k + 1
        if k >= len(inner) or inner[k].kind != "NUM" or inner[k].num is None:
            return _worked_tuple(toks, seg)
        t = inner[k]
        power = _times_ten(inner, k + 1)
        if power is not None:                 # 1.5\times10^{-7}
            exp, k = power
            row.append(nb.Num.parse(f"{sign}{t.text}e{exp}", seg.line_of(t.pos)))
        else:
            row.append(nb.Num.parse(sign + t.text, seg.line_of(t.pos)) if sign else t.num)
        k += 1
        if k < len(inner):
            if inner[k].text != ",":
                return _worked_tuple(toks, seg)
            k += 1
            if k >= len(inner):
                return None          # (1, 2,): a trailing comma is no vector
    before = _SPACING.sub("", seg.text[:toks[0].pos]).rstrip()     # "\\alpha_1 \\;\\approx\\; (...)"
    if len(row) < 2 or (all(n.decimals is None for n in row) and not _token_vector(before, len(row))):
        return None          # (2, 1), (3, 4): an entry's index or a shape as often as a vector of whole numbers
    alone = not before and not seg.text[toks[-1].pos + 1:].strip() and any(n.decimals for n in row)
    if not before.endswith(_RELATIONS) and not alone:
        # only the value of an equation, "= (0.28, 0.14, 0.58)", not "entry (0.5, 1)"; or the whole of its math,
        # "the weights are about $(0.42, 0.16, 0.42)$", unnamed: identified, if at all, by its values
        return None
    return Array([row], seg.place(toks[0].pos), style="tex")


def _token_vector(before: str, n: int) -> bool:
    """A token's vector named before "=": q, k_2, \\mathbf{v}_1; a capital only with an index or three entries or more
    (K_2 = (-2, -1, 1), Q = (1, 2, 3); X = (3, 4) is as often a shape)."""
    m = _TOKEN_VECTOR.search(before)
    return bool(m) and (not m.group("big") or bool(m.group("sub")) or n >= 3)


def _times_ten(toks: list[Tok], k: int) -> tuple[str, int] | None:
    """`× 10^{-7}` after a mantissa: (the exponent as text, the index of its last token), or None."""
    if k + 2 >= len(toks) or toks[k].text not in ("*", "×") or toks[k + 1].kind != "NUM" or toks[k + 1].text != "10" \
            or toks[k + 2].text != "^" or k + 3 >= len(toks):
        return None
    e = toks[k + 3]
    parts = e.args[0] if e.kind == "GROUP" and e.args else [e]
    text = "".join(x.text for x in parts).replace("−", "-")
    return (text, k + 3) if re.fullmatch(r"[-+]?\d{1,3}", text) else None


def _worked_tuple(toks: list[Tok], seg: Segment) -> Array | None:
    """`(2.028/4.453, 1/4.453, 1.425/4.453) = (0.455, 0.225, 0.320)`: a tuple of worked cells, one side of a
    relation, read as a row whose cells keep their arithmetic (claims/vector.py judges the row it equals)."""
    from .arrays import _cell
    inner, cells, piece = toks[1:-1], [], []
    for t in inner + [None]:
        if t is None or t.text == ",":
            c = _cell(piece, seg)
            if not isinstance(c, nb.Num):
                return None
            cells.append(c)
            piece = []
        else:
            piece.append(t)
    if len(cells) < 2 or not any(re.search(r"[-+*/×·÷]", c.text.lstrip("-+")) for c in cells):
        return None
    before = _SPACING.sub("", seg.text[:toks[0].pos]).rstrip()
    after = seg.text[toks[-1].pos + 1:].lstrip(" \\;,:!~")
    if not (before.endswith(_RELATIONS) or after.startswith(_RELATIONS)):
        return None
    return Array([cells], seg.place(toks[0].pos), style="tex")
