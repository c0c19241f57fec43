"""Sizes and names inside a statement's parts: a result with a unit of size (`19.2 GB`), a shape glossed by its
dimensions' names, a shape named by the word before it, and a token's own vector name (`v2 = (1, 1)` is entries,
not a shape).  Predicates over tokens for readers/statements.py."""

from __future__ import annotations

import re

from .. import labels as lb
from .. import numbers as nb
from ..objects import Array
from .tokens import Tok, flat_text


# units of size and work: a result written with one (`19.2 GB`) is a size, and a line that works one out is the
# "size" step (claims/target.py)
SIZE_UNITS = r"[kKMGTP]i?B|[kKMGTP]?(?:FLOPS?|FLOPs?|flops)|bytes?"
_SIZE_UNIT = re.compile(SIZE_UNITS)


def with_unit(toks: list[Tok]) -> nb.Num | None:
    r"""A result written with a unit of size or work, `19.2 GB`, `200 \text{MB}`, `67 MFLOPs`, `8.6 GB per layer`:
    the number, else None."""
    if len(toks) == 4 and toks[2].kind == "ID" and toks[2].text == "per" and toks[3].kind == "ID":
        toks = toks[:2]           # "per layer", "per token": what the size is counted for
    if len(toks) != 2 or toks[0].kind != "NUM" or toks[0].num is None or toks[1].kind not in ("ID", "TEXT"):
        return None
    # (`9 \text{ GB per layer}`: the words after the unit in its TeX text)
    unit = re.sub(r"\s+per\s+\w+$", "", toks[1].text.strip()) if toks[1].kind == "TEXT" else toks[1].text.strip()
    return toks[0].num if _SIZE_UNIT.fullmatch(unit) else None


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


# a word that counts what a factor is ("128 heads", "2 bytes", "131072 tokens"): letters only, two or more
# (or one to four CJK characters: `32 层 × 8 个头 × 2 字节`, `32 レイヤー`, `8 개 헤드`)
_COUNT_WORD = re.compile(r"[A-Za-z][a-z]+(?:[-_][a-z]+)?|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{1,5}")


def counted_product(toks: list[Tok]) -> list[Tok] | None:
    """A product whose factors say what they count, `2 (K,V) × 128 heads × 128 dim × 2 bytes × 131072 tokens` (a
    KV cache's size): its numbers and signs alone, the words and remarks in parentheses after each number dropped;
    None unless at least two factors are all numbers, each followed by at most two words or one parenthesis of
    names, one of them at least with a word, and every sign between them a multiplication."""
    kept: list[Tok] = []
    k, worded, n = 0, False, len(toks)
    while k < n:
        if toks[k].kind != "NUM":
            return None
        kept.append(toks[k])
        k += 1
        if k < n and toks[k].kind == "OP" and toks[k].text == "(":
            close = next((j for j in range(k + 1, n) if toks[j].kind == "OP" and toks[j].text == ")"), None)
            if close is None or any(t.kind not in ("ID", "OP") or (t.kind == "OP" and t.text != ",")
                                    for t in toks[k + 1:close]):
                return None           # "(K,V)": names of what is counted, nothing to work out
            k, worded = close + 1, True
        words = 0
        while k < n and toks[k].kind in ("ID", "TEXT") and _COUNT_WORD.fullmatch(toks[k].text.strip()) and words < 2:
            k, words, worded = k + 1, words + 1, True
        if k == n:
            break
        if not (toks[k].kind == "OP" and toks[k].text == "*"):
            return None
        kept.append(toks[k])
        k += 1
        if k == n:
            return None
    return kept if worded and len(kept) >= 3 else None


def query_row_name(name: str, caption: str) -> int | None:
    """The row a row's name gives (`q0`, `q_2`, `query 1`) under a caption that names a matrix of the attention
    computed per query (weights, scores, outputs: "attention weights:"), else None."""
    m = re.fullmatch(r"\s*(?:q|query)[_ ]?(\d{1,3})\s*", name, re.I)
    cap = lb.parse_label(caption)
    if m is None or cap is None or cap.raw_row is not None or not set(cap.nodes) & {"A", "S", "QKt", "O", "E"}:
        return None
    return int(m.group(1))
