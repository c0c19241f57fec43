"""Which name an array of a statement takes when the statement starts with another: a heading before a colon
("Head1: Q(token2) = [0, 1]", "HEAD 0: Attention Weights [...]") says whose the array is, not what it is; and a
range in words ("each value stays in [-1, 1]") is no array at all."""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import Array, LabelPart, Part

INTERVAL = re.compile(r"(?:\b(?:in|within|between|range|interval)|∈|\\in|在|于|介于|范围|区间)\s*[:：]?\s*$", re.I)


def subject_rel(parts: list[Part], rels: list[str], first: str) -> bool:
    """The relation after the chain's first label is an equality (not the colon of a heading, "Head1: ...")."""
    k = next(i for i, q in enumerate(parts) if isinstance(q, LabelPart) and q.text == first)
    return k >= len(rels) or rels[k] not in (":", "：")


def _head_prefix(label: str) -> int | None:
    """"Head1", "head 2", "头2": a head named before a colon, said of what follows it."""
    m = re.fullmatch(r"\s*(?:[Hh]ead|HEAD|头|注意力头)\s*[_#]?\{?(\d+)\}?\s*", label)
    return int(m.group(1)) if m else None


def _with_head(label: str, head: int) -> str:
    """A token's row named with no head (`Q(token2)`, `k_1`), said under a head's prefix: the same with the head."""
    ref = lb.parse_label(label)
    if ref is None or ref.raw_head is not None or ref.nodes[0] not in ("Q", "K", "V"):
        return label
    return f"{ref.nodes[0].lower()}_{ref.raw_row}^({head})" if ref.raw_row is not None else f"{ref.nodes[0]}^({head})"


def under_head(a: Array, first: str, left: str) -> None:
    """An array after "Head N:" and its own name: the name with the head (q_2^(1)), head N as its context, and the
    prefix dropped from its labels ("HEAD 0: Attention Weights" is head 0's weights, not head 0's output)."""
    head = _head_prefix(first)
    if head is None:
        return
    a.label = _with_head(left, head)
    a.labels = [x for x in a.labels if x != first and _head_prefix(x) is None] or [a.label]
    a.context.head = head


_SHAPE_WORDS = re.compile(r"\bshapes?\b|\bsizes?\b|\bdims?\b|\bdimensions?\b|形状|维度|大小", re.I)


def sizes_of_shape(parts: list[Part], k: int, a: Array) -> bool:
    """An array of whole numbers or products of them after a label that speaks of shapes ("Q × K^T shape:
    [3 × 2] × [2 × 3] = [3 × 3]"): sizes written in brackets, not entries of a matrix."""
    if not any(isinstance(p, LabelPart) and _SHAPE_WORDS.search(p.text) for p in parts[:k]) or a.n_rows != 1:
        return False
    return all(re.fullmatch(r"\d+(?:\s*[×x*]\s*\d+)*", n.text.strip()) for n in a.numbers if n is not None)
