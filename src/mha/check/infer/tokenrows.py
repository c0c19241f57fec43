"""Per-token vectors stacked into a matrix: the rows of Q, K, V or X given one token at a time (`q1`, `k_2`,
`query_3`, `x_cat`, 第2个词的键), in the order their indices or the keys' words give (starts.py reads a start from
them; candidates.py stacks X's rows)."""

from __future__ import annotations

import re

import numpy as np

from .prepare import Obj, _is, _ref_for


# a word that numbers tokens, not heads: query_1, key 2, value_3 (Q_1 alone is head 1's Q)
_TOKEN_WORD = re.compile(r"(?i)(?:query|key|value|查询|键|值)[\s_-]*\(?\d|"
                         # K2 (key for word 2), Q1 (query of token 1): a token's vector, said in parentheses
                         r"\([^()]*\b(?:word|token|position|item)s?(?![a-z])[^()]*\)|\([^()]*(?:词|位置)[^()]*\)")


# a token's vector named by a word and its number, or by its place in Chinese: Query 1, Value1, 第2个词的键
_TOKEN_NAME = re.compile(r"(?i)^(?:query|key|value|查询|键|值)(?:向量)?\s*(\d{1,2})$|"
                         r"^(?:查询|键|值)向量\s*[qkv]_?\{?(\d{1,2})\}?$|"
                         r"^第\s*(\d{1,2})\s*个\s*(?:词|token|位置)?\s*的?\s*(?:查询|键|值)(?:向量)?$")


def token_index(o: Obj, role: str, order: dict[str, int] | None = None,
                capitals: bool = False) -> int | None:
    """The 0-based token a vector labelled `role` belongs to: q1, q_{2}, query_3, or "token 2" in the prose; or, named
    by its word (k_she), its place in `order`."""
    ref = _ref_for(o, role)
    if ref is None:
        return None
    if ref.token is not None:
        return (order or {}).get(ref.token.lower())
    if ref.row is not None:
        return ref.row
    if ref.raw_head is not None and _TOKEN_WORD.search(o.a.label or ""):
        return ref.raw_head - 1 if ref.raw_head >= 1 else 0
    if capitals and ref.raw_head is not None and ref.raw_head >= 1:
        return ref.raw_head - 1          # K_1, K_2, K_3 as one row each: read, as a second option, as tokens' vectors
    m = _TOKEN_NAME.match((o.a.label or "").strip())
    if m and ref.head is None:                  # the name says the token, whatever row the prose was on
        return int(next(g for g in m.groups() if g)) - 1
    if o.row_hint is not None and ref.head is None:
        return o.row_hint - 1
    return None


def token_rows(objs: list[Obj], role: str, capitals: bool = False) -> tuple[np.ndarray, list[Obj]] | None:
    """The per-token vectors labelled `role` assembled into a matrix, rows 0..n-1 (the first of each row);
    capitals: `K_2` numbers a token too (by default it is head 2's K)."""
    by: dict[int, Obj] = {}
    order = word_order(objs)
    heading = None
    for o in objs:
        if not _is(o, role) or o.val is None or o.slices != 1 or o.val.shape[0] != 1 or o.n < 1:
            continue
        k = token_index(o, role, order, capitals)
        if k is None or not 0 <= k < 64:
            continue
        if k in by and by[k].val.shape == o.val.shape and np.array_equal(by[k].val, o.val):
            continue    # the same vector quoted again
        if by and (k in by or (o.a.context.heading != heading and k != max(by) + 1)):
            break       # the first run of them: a token given other values, or a new section that does not go on
            #             to the next token, is another example's
        by[k] = o
        heading = o.a.context.heading
    if not by or len({o.val.shape for o in by.values()}) != 1:
        return None
    keep = sorted(by)
    if keep != list(range(len(keep))):
        # a lone query may be any token's (q_3 against k_1..k_3); keys and values may be some tokens only (q_6
        # against k_1, k_4, k_6 of a sparse pattern), taken in order, where the values are the same tokens'
        if not (role == "Q" and len(keep) == 1) and not (role in ("K", "V") and len(keep) >= 2):
            return None
    rows = [by[k] for k in keep]
    return np.concatenate([o.val for o in rows], axis=0), rows


def word_order(objs: list[Obj]) -> dict[str, int]:
    """Tokens named by their words (k_she, v_she, q_the): numbered in the order the keys name them (then the
    values, the queries), so that keys, values and the printed weights keep the page's order."""
    order: dict[str, int] = {}
    for role in ("K", "V", "Q", "X"):
        for o in objs:
            ref = _ref_for(o, role)
            if ref is not None and ref.token is not None:
                order.setdefault(ref.token.lower(), len(order))
    return order
