"""Sizes and names inside a statement's parts: a result with a unit of size (`19.2 GB`), a shape glossed by its
dimensions' names, a shape named by the word before it, and a token's own vector name (`v2 = (1, 1)` is entries,
not a shape).  Predicates over tokens for readers/statements.py."""

from __future__ import annotations

import re

from .. import labels as lb
from .. import numbers as nb
from ..objects import Array
from .tokens import Tok, flat_text


_SIZE_UNIT = re.compile(r"[kKMGTP]i?B|[kKMGTP]?(?:FLOPS?|FLOPs?|flops)|bytes?")


def with_unit(toks: list[Tok]) -> nb.Num | None:
    r"""A result written with a unit of size or work, `19.2 GB`, `200 \text{MB}`, `67 MFLOPs`: the number, else None."""
    if len(toks) != 2 or toks[0].kind != "NUM" or toks[0].num is None or toks[1].kind not in ("ID", "TEXT"):
        return None
    return toks[0].num if _SIZE_UNIT.fullmatch(toks[1].text.strip()) else None


_SHAPE_WORD = re.compile(r"(?:shape|size|dimensions?|dims?|形状|维度|大小|尺寸)\s*(?:of|is|=|:|是|为)?\s*$", re.I)


def token_vector_name(toks: list[Tok]) -> bool:
    """`v2`, `k_0`, `q₁` (its tokens stripped of edge marks): the name of one token's query, key, value or input
    vector."""
    ref = lb.parse_label(flat_text(toks)) if toks else None
    return ref is not None and ref.raw_row is not None and ref.raw_col is None and \
        set(ref.nodes) <= {"Q", "K", "V", "X"}


def glossed_sizes(toks: list[Tok]) -> bool:
    """A bracket of whole numbers followed by as many names in parentheses, [4, 16, 128] (batch_size, ctx_length,
    d_key): each size glossed by the dimension it counts, a tensor's shape (not a remark on a vector's values)."""
    if len(toks) < 8 or toks[-1].text != ")":
        return False
    k = max((i for i, t in enumerate(toks) if t.text == "("), default=-1)
    names = toks[k + 1:-1]
    if k < 3 or toks[k - 1].text != "]" or len(names) < 3 or \
            any(t.kind != ("ID" if i % 2 == 0 else "OP") or (i % 2 and t.text != ",") for i, t in enumerate(names)):
        return False
    j = max((i for i in range(k) if toks[i].text == "["), default=-1)
    sizes = toks[j + 1:k - 1]
    return j >= 0 and len(sizes) == len(names) and \
        all(t.kind == "NUM" and t.text.isdigit() and int(t.text) >= 1 if i % 2 == 0 else t.text == ","
            for i, t in enumerate(sizes))


def named_shape(label: str, arr: Array) -> bool:
    """Words that end in "shape" (size, 形状) before one bracket of whole numbers: a tensor's sizes."""
    cells = [n for r in arr.rows if r for n in r]          # (a row elided in the printout is None)
    return len(arr.rows) == 1 and len(cells) >= 2 and bool(_SHAPE_WORD.search(label)) and \
        all(n is not None and n.exact and n.value >= 1 and float(n.value).is_integer() for n in cells)
